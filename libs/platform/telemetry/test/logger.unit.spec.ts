import { afterAll, describe, expect, it } from '@jest/globals';
import { context, trace } from '@opentelemetry/api';
import {
  createLogger,
  createLogRoot,
  InvalidLogFormatError,
  InvalidLogLevelError,
  type LogLevel,
} from '../src/logger.js';
import { installTracing } from './tracing-harness.js';

const tracing = installTracing();
afterAll(() => tracing.uninstall());

function capture(level?: LogLevel, env: Record<string, string> = {}) {
  const lines: string[] = [];
  const logger = createLogger({
    service: 'gateway',
    destination: { write: (line: string) => lines.push(line) },
    env,
    ...(level ? { level } : {}),
  });
  return { logger, lines, entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('createLogger', () => {
  it('writes one JSON line per entry with time, level, service, message and fields', () => {
    const { logger, lines, entries } = capture();
    logger.info('bonus registered', { issueId: 17, operatorId: 'op-1' });

    expect(lines).toHaveLength(1);
    const line = lines[0] ?? '';
    expect(line.endsWith('}\n')).toBe(true);
    expect(line.indexOf('\n')).toBe(line.length - 1);
    const [entry] = entries();
    expect(entry).toEqual({
      time: expect.any(String),
      level: 'info',
      service: 'gateway',
      msg: 'bonus registered',
      issueId: 17,
      operatorId: 'op-1',
    });
    const time = String(entry?.['time']);
    expect(new Date(time).toISOString()).toBe(time);
  });

  it('stamps trace_id and span_id of the active span, and nothing outside a span', () => {
    const { logger, entries } = capture();
    const span = tracing.tracer.startSpan('handle command');
    context.with(trace.setSpan(context.active(), span), () => logger.info('inside'));
    span.end();
    logger.info('outside');

    const [inside, outside] = entries();
    expect(inside).toMatchObject({
      msg: 'inside',
      trace_id: span.spanContext().traceId,
      span_id: span.spanContext().spanId,
    });
    expect(inside?.['trace_id']).toMatch(/^[0-9a-f]{32}$/);
    expect(outside).not.toHaveProperty('trace_id');
    expect(outside).not.toHaveProperty('span_id');
  });

  it('drops entries below its level', () => {
    const { logger, entries } = capture('warn');
    logger.debug('d');
    logger.info('i');
    logger.warn('w');
    logger.error('e');
    expect(entries().map((entry) => entry['level'])).toEqual(['warn', 'error']);
    expect(logger.isLevelEnabled('info')).toBe(false);
    expect(logger.isLevelEnabled('error')).toBe(true);
  });

  it('defaults to info and takes LOG_LEVEL (any case) from the environment', () => {
    const byDefault = capture();
    byDefault.logger.debug('hidden');
    byDefault.logger.info('shown');
    expect(byDefault.entries().map((entry) => entry['msg'])).toEqual(['shown']);

    const debug = capture(undefined, { LOG_LEVEL: 'DEBUG' });
    debug.logger.debug('shown');
    expect(debug.entries().map((entry) => entry['msg'])).toEqual(['shown']);

    const silent = capture(undefined, { LOG_LEVEL: 'silent' });
    silent.logger.error('hidden');
    expect(silent.lines).toEqual([]);
  });

  it('refuses an unknown LOG_LEVEL with a clear message', () => {
    expect(() => capture(undefined, { LOG_LEVEL: 'verbose' })).toThrow(InvalidLogLevelError);
    expect(() => capture(undefined, { LOG_LEVEL: 'verbose' })).toThrow(
      'LOG_LEVEL must be one of debug, info, warn, error, silent; got "verbose"',
    );
  });

  it('serialises errors under any top-level field as type, message, stack, code and cause, and leaves the caller its fields', () => {
    const { logger, entries } = capture();
    const cause = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const error = new TypeError('callback failed', { cause });
    const fields = { err: error, reason: new RangeError('r'), amount: 10n };
    logger.error('wallet call failed', fields);

    const [entry] = entries();
    expect(entry?.['err']).toEqual({
      type: 'TypeError',
      message: 'callback failed',
      stack: expect.stringContaining('TypeError: callback failed'),
      cause: { type: 'Error', message: 'connect ECONNREFUSED', code: 'ECONNREFUSED', stack: expect.any(String) },
    });
    expect(entry?.['reason']).toEqual({ type: 'RangeError', message: 'r', stack: expect.any(String) });
    expect(fields.err).toBe(error);
    expect(fields.amount).toBe(10n);
  });

  it('redacts tokens, secrets and session tokens by field name, at the top and under the usual parents', () => {
    const { logger, lines, entries } = capture();
    logger.info('operator loaded', {
      apiToken: 'tok-top',
      operator: { id: 'op-1', signingSecret: 'sec-nested', apiToken: 'tok-nested' },
      session: { sessionToken: 'player-credential' },
      headers: { authorization: 'Bearer tok-header' },
      token: 'launch-token',
    });
    logger.child({ secret: 'bound-secret' }).info('bound');

    const joined = lines.join('');
    for (const secret of ['tok-top', 'sec-nested', 'tok-nested', 'player-credential', 'tok-header', 'launch-token']) {
      expect(joined).not.toContain(secret);
    }
    expect(joined).not.toContain('bound-secret');
    const [entry] = entries();
    expect(entry).toMatchObject({
      apiToken: '[REDACTED]',
      operator: { id: 'op-1', signingSecret: '[REDACTED]', apiToken: '[REDACTED]' },
      session: { sessionToken: '[REDACTED]' },
      headers: { authorization: '[REDACTED]' },
      token: '[REDACTED]',
    });
  });

  it('adds child bindings to every entry, call fields after them', () => {
    const { logger, entries } = capture();
    const child = logger.child({ operatorId: 'op-1' }).child({ playerId: 'p-7' });
    child.info('spin', { bet: 100 });
    logger.info('parent');

    expect(entries()).toEqual([
      expect.objectContaining({ msg: 'spin', service: 'gateway', operatorId: 'op-1', playerId: 'p-7', bet: 100 }),
      expect.not.objectContaining({ operatorId: 'op-1' }),
    ]);
  });

  it('never throws on fields JSON cannot hold', () => {
    const { logger, entries } = capture();
    const circular: Record<string, unknown> = { a: 1 };
    circular['self'] = circular;
    logger.warn('odd fields', { circular });
    logger.info('big number', { amount: 12345678901234567890n });

    const [odd, big] = entries();
    expect(odd).toMatchObject({ msg: 'odd fields', circular: { a: 1 } });
    expect(JSON.stringify(odd)).toContain('"self":"[Circular]"');
    expect(big).toMatchObject({ amount: '12345678901234567890' });
  });

  it('writes pretty lines when LOG_FORMAT=pretty: time, level, service, message and fields on one line', () => {
    const { logger, lines } = capture(undefined, { LOG_FORMAT: 'pretty' });
    const span = tracing.tracer.startSpan('spin');
    context.with(trace.setSpan(context.active(), span), () => logger.warn('bet not answered', { roundId: 7 }));
    span.end();

    expect(lines).toHaveLength(1);
    const line = lines[0] ?? '';
    expect(line).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] WARN: gateway: bet not answered \{.*\}\n$/);
    expect(line).toContain('"roundId":7');
    expect(line).toContain(`"trace_id":"${span.spanContext().traceId}"`);
    expect(() => JSON.parse(line)).toThrow();
  });

  it('writes JSON to a destination other than a terminal, and refuses an unknown LOG_FORMAT', () => {
    const json = capture(undefined, { LOG_FORMAT: '' });
    json.logger.info('machine-readable');
    expect(json.entries()).toEqual([expect.objectContaining({ msg: 'machine-readable' })]);
    expect(() => capture(undefined, { LOG_FORMAT: 'text' })).toThrow(InvalidLogFormatError);
    expect(() => capture(undefined, { LOG_FORMAT: 'text' })).toThrow(
      'LOG_FORMAT must be one of json, pretty; got "text"',
    );
  });

  it('gives each service of a process a child of one pino logger, on one destination', () => {
    const lines: string[] = [];
    const root = createLogRoot({ level: 'info', destination: { write: (line: string) => lines.push(line) } });
    root.forService('gateway').info('one');
    root.forService('game-server').info('two');

    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toEqual([
      expect.objectContaining({ service: 'gateway', msg: 'one' }),
      expect.objectContaining({ service: 'game-server', msg: 'two' }),
    ]);
    expect(lines.every((line) => line.split('"service"').length === 2)).toBe(true);
    expect(root.format).toBe('json');
  });
});

describe('the repeat limit', () => {
  function limited(env: Record<string, string>) {
    let now = 0;
    const lines: string[] = [];
    const root = createLogRoot({
      destination: { write: (line: string) => lines.push(line) },
      env,
      now: () => now,
    });
    return {
      logger: root.forService('wallet-dispatcher'),
      entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
      advance: (ms: number) => (now += ms),
    };
  }

  it('writes an identical error at most LOG_REPEAT_LIMIT times per window, then says how many it held back', () => {
    const { logger, entries, advance } = limited({ LOG_REPEAT_LIMIT: '3', LOG_REPEAT_WINDOW_MS: '1000' });
    for (let i = 0; i < 50; i++)
      logger.error('callback failed', { operatorId: 'op-a', error: new Error('ECONNREFUSED') });
    expect(entries()).toHaveLength(3);
    advance(1_000);
    logger.error('callback failed', { operatorId: 'op-a', error: new Error('ECONNREFUSED') });
    expect(entries()).toHaveLength(4);
    expect(entries()[3]).toMatchObject({ msg: 'callback failed', repeatsSuppressed: 47 });
    expect(
      entries()
        .slice(0, 3)
        .every((entry) => entry['repeatsSuppressed'] === undefined),
    ).toBe(true);
  });

  it("never holds back another operator's line, another error or another message", () => {
    const { logger, entries } = limited({ LOG_REPEAT_LIMIT: '2' });
    for (let i = 0; i < 10; i++) logger.error('callback failed', { operatorId: 'op-a', error: new Error('timeout') });
    logger.error('callback failed', { operatorId: 'op-b', error: new Error('timeout') });
    logger.error('callback failed', { operatorId: 'op-a', error: new Error('ECONNRESET') });
    logger.warn('callback failed', { operatorId: 'op-a', error: new Error('timeout') });
    logger.child({ operatorId: 'op-c' }).error('callback failed', { error: new Error('timeout') });
    expect(
      entries().map((entry) => [entry['level'], entry['operatorId'], (entry['error'] as { message: string }).message]),
    ).toEqual([
      ['error', 'op-a', 'timeout'],
      ['error', 'op-a', 'timeout'],
      ['error', 'op-b', 'timeout'],
      ['error', 'op-a', 'ECONNRESET'],
      ['warn', 'op-a', 'timeout'],
      ['error', 'op-c', 'timeout'],
    ]);
  });

  it('leaves info lines alone, is off with LOG_REPEAT_LIMIT=0, and refuses a bad setting', () => {
    const { logger, entries } = limited({ LOG_REPEAT_LIMIT: '1' });
    for (let i = 0; i < 5; i++) logger.info('spin settled');
    expect(entries()).toHaveLength(5);
    const off = limited({ LOG_REPEAT_LIMIT: '0' });
    for (let i = 0; i < 30; i++) off.logger.error('store down');
    expect(off.entries()).toHaveLength(30);
    expect(() => limited({ LOG_REPEAT_LIMIT: 'many' })).toThrow(
      'LOG_REPEAT_LIMIT must be a whole number of 0 or more; got "many"',
    );
  });
});
