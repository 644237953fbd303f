import { createServer } from 'node:net';

/** A port free right now on 127.0.0.1 (bound by the OS, then released): for a server told its port, or one nothing listens on. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The status a GET of `url` answers, or `refused` when nothing answers. */
export async function httpStatus(url: string): Promise<number | 'refused'> {
  try {
    const response = await fetch(url);
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 'refused';
  }
}
