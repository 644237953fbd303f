/** `reelstream replay`: placeholder until the replay engine lands in this branch. */
import type { CliCommand } from './command-registry.js';

export const replayCommand: CliCommand = {
  words: ['replay'],
  summary: 'Fold the event log into reports (bonus outcomes, game performance, agent, wallet delivery)',
  usage: 'usage: reelstream replay [options]',
  run: () => Promise.resolve(2),
};
