/** `npm run kafka:topics -- check|create`: the platform's Kafka topics against the plan (docs/configuration.md). */
import { topicsMain } from '@reelstream/platform-messaging-kafka';

try {
  process.exitCode = await topicsMain(process.argv.slice(2), process.env, (line) => console.log(line));
} catch (error) {
  // A configuration mistake or an unreachable cluster: one line saying which, not a stack trace.
  console.error(`kafka:topics: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
}
