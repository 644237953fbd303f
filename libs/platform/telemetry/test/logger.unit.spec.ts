import { afterAll, describe, expect, it } from '@jest/globals';
import { context, trace } from '@opentelemetry/api';
import { createLogger, InvalidLogLevelError, type LogLevel } from '../src/logger.js';
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

  it('serialises errors as name, message, stack, code and cause', () => {
    const { logger, entries } = capture();
    const cause = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const error = new TypeError('callback failed', { cause });
    logger.error('wallet call failed', { err: error, nested: { errors: [new RangeError('r')] } });

    const [entry] = entries();
    expect(entry?.['err']).toEqual({
      name: 'TypeError',
      message: 'callback failed',
      stack: expect.stringContaining('TypeError: callback failed'),
      cause: { name: 'Error', message: 'connect ECONNREFUSED', code: 'ECONNREFUSED', stack: expect.any(String) },
    });
    expect(entry?.['nested']).toEqual({ errors: [{ name: 'RangeError', message: 'r', stack: expect.any(String) }] });
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
    expect(odd).toMatchObject({ msg: 'odd fields', log_fields_error: expect.stringContaining('circular') });
    expect(big).toMatchObject({ amount: '12345678901234567890' });
  });
});
