import { describe, expect, it } from '@jest/globals';
import { StopSequence } from '../src/index.js';

describe('StopSequence', () => {
  it('stops the parts last-started-first, once however often it is called', async () => {
    const stopped: string[] = [];
    const stops = new StopSequence();
    stops.add(() => void stopped.push('store'));
    stops.add(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      stopped.push('consumer');
    });
    stops.add(() => void stopped.push('http'));
    const first = stops.stop();
    expect(stops.stop()).toBe(first);
    await first;
    await stops.stop();
    expect(stopped).toEqual(['http', 'consumer', 'store']);
  });

  it('runs every step when one fails and rethrows the first failure', async () => {
    const stopped: string[] = [];
    const stops = new StopSequence();
    stops.add(() => void stopped.push('first started'));
    stops.add(() => {
      throw new Error('second failed');
    });
    stops.add(async () => {
      throw new Error('third failed');
    });
    await expect(stops.stop()).rejects.toThrow('third failed');
    expect(stopped).toEqual(['first started']);
  });
});
