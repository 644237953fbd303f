/**
 * `npm start`: every service in one process on the embedded back ends, the operator sandbox as
 * the demo operator's wallet, and a banner saying what to do next. Ctrl-C drains and exits. Every
 * socket it listens on is on loopback unless its variable names another interface.
 */
import { runService } from '@reelstream/platform-runtime';
import { loopbackByDefault } from './loopback-defaults.js';
import { startPlatform } from './start-platform.js';

await runService('platform', startPlatform, { env: loopbackByDefault(process.env) });
