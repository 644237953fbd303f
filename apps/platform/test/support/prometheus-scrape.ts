/** Reading a Prometheus scrape in tests: the families it holds and the samples of one metric. */
export { freePort } from '@reelstream/testing';

/** The Prometheus text of a scrape as `name{labels} value` lines, and the family names in it. */
export interface Scrape {
  text: string;
  families: Set<string>;
  series(name: string): { labels: Record<string, string>; value: number }[];
}

export function parseScrape(text: string): Scrape {
  const samples = text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]),
      ) as Record<string, string>;
      return { name: match[1] as string, labels, value: Number(match[3]) };
    });
  return {
    text,
    families: new Set(samples.map((sample) => sample.name)),
    series: (name) => samples.filter((sample) => sample.name === name).map(({ labels, value }) => ({ labels, value })),
  };
}
