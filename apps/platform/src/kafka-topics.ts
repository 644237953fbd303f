/** `npm run kafka:topics -- check|create`: the platform's Kafka topics against the plan (docs/configuration.md). */
import { topicsMain } from '@reelstream/messaging-kafka';

process.exitCode = await topicsMain(process.argv.slice(2), process.env, (line) => console.log(line));
