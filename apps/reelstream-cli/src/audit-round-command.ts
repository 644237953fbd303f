/** `reelstream audit round <roundId>`: exit 0 when the round matches its record, 1 when it does not. */
import { findGame } from '@reelstream/contracts';
import { parseArgs } from 'node:util';
import { loadRoundAudit, renderRoundAudit } from '@reelstream/analytics-application';
import { RoundNotFoundError } from '@reelstream/analytics-domain';
import { openSource, sourceUrlOf } from './source.js';
import { CliError } from './cli-error.js';
import type { CliCommand } from './command-registry.js';
import { loadCatalogSetting } from './settings.js';

const usage = `usage: reelstream audit round <roundId> [--source <file|sqlite:…|esdb://…>] [--catalog <catalog.json>] [--json]

Recomputes the round from its recorded RNG draws on the game model it names, checks it against
what the round, the bonus-ledger and the wallet transactions say was paid, and lists those
transactions. Exit code 0: matches; 1: a mismatch; 2: bad input (unknown round, missing file).`;

export const auditRoundCommand: CliCommand = {
  words: ['audit', 'round'],
  summary: 'Recompute a round from its recorded RNG draws and check what was paid',
  usage,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: { source: { type: 'string' }, catalog: { type: 'string' }, json: { type: 'boolean' } },
    });
    const [roundText, ...extra] = positionals;
    if (roundText === undefined || extra.length > 0) throw new CliError(`give one roundId\n${usage}`);
    if (!/^[1-9][0-9]{0,15}$/.test(roundText))
      throw new CliError(`roundId ${JSON.stringify(roundText)} is not a positive integer`);
    const catalog = loadCatalogSetting(values.catalog, io);
    const { store } = await openSource(sourceUrlOf(values.source, io));
    try {
      const audit = await loadRoundAudit(store, Number(roundText), (gameId) => findGame(catalog, gameId)?.model);
      io.stdout.write(`${values.json ? JSON.stringify(audit, null, 2) : renderRoundAudit(audit)}\n`);
      return audit.matches ? 0 : 1;
    } catch (error) {
      if (error instanceof RoundNotFoundError) throw new CliError(error.message);
      throw error;
    } finally {
      await store.close();
    }
  },
};
