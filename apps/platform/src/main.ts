/**
 * `npm start`: every service in one process on the embedded back ends, the operator sandbox as
 * the demo operator's wallet, and a banner saying what to do next. Ctrl-C drains and exits.
 */
import { runService } from '@reelstream/runtime';
import { startPlatform } from './start-platform.js';

await runService('platform', startPlatform);
