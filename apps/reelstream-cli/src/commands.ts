/** Every `reelstream` command, in help order. A new command is one `add` here. */
import { CommandRegistry } from './command-registry.js';
import { auditRoundCommand } from './audit-round-command.js';
import { exportCommand } from './export-command.js';
import { reconcileCommand } from './reconcile-command.js';
import { replayCommand } from './replay-command.js';
import { reportHtmlCommand } from './report-html-command.js';

export function buildRegistry(): CommandRegistry {
  return new CommandRegistry()
    .add(replayCommand)
    .add(auditRoundCommand)
    .add(reconcileCommand)
    .add(reportHtmlCommand)
    .add(exportCommand);
}
