/**
 * `node --import ./bench/support/sql-census.mjs …`: counts every SQLite statement run (by SQL text
 * and database file) and every transaction, and writes the census as JSON to
 * $SQL_CENSUS_FILE when the process exits. The e2e bench passes it with BENCH_SQL_CENSUS=1; the
 * figures in docs/performance.md ("A free spin, hop by hop") come from it.
 */
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance as perf } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');
/** key → [times run, milliseconds spent in them] */
const counts = new Map();
const count = (key, ms = 0) => {
  const entry = counts.get(key) ?? [0, 0];
  entry[0] += 1;
  entry[1] += ms;
  counts.set(key, entry);
};
const timed = (key, run) => {
  const started = performance.now();
  try {
    return run();
  } finally {
    count(key, performance.now() - started);
  }
};
const fileOf = (db) => String(db.name).split('/').pop();

const prepare = Database.prototype.prepare;
Database.prototype.prepare = function (sql) {
  const statement = prepare.call(this, sql);
  const key = `${fileOf(this)}  ${String(sql).replace(/\s+/g, ' ').trim().slice(0, 110)}`;
  for (const method of ['run', 'get', 'all', 'iterate']) {
    const original = statement[method];
    // The log's inserts are counted per topic: how many messages one operation sends where.
    const perTopic = key.includes('INSERT INTO bus_messages');
    statement[method] = function (...args) {
      return timed(perTopic ? `${key} [${args[0]}]` : key, () => original.apply(this, args));
    };
  }
  count(`prepare  ${key}`);
  return statement;
};
const transaction = Database.prototype.transaction;
Database.prototype.transaction = function (fn) {
  const db = this;
  const wrapped = transaction.call(this, fn);
  const wrap = (variant) => {
    const original = variant;
    return function (...args) {
      if (db.inTransaction) return original.apply(this, args);
      return timed(`${fileOf(db)}  transaction()`, () => original.apply(this, args));
    };
  };
  const result = wrap(wrapped);
  for (const kind of ['deferred', 'immediate', 'exclusive']) result[kind] = wrap(wrapped[kind]);
  result.default = result;
  return result;
};
const pragma = Database.prototype.pragma;
Database.prototype.pragma = function (source, options) {
  return timed(`${fileOf(this)}  PRAGMA ${String(source).replace(/\s+/g, ' ')} (prepared per call)`, () =>
    pragma.call(this, source, options),
  );
};
// The event loop over the same phase: how busy it was (utilization) and how late timers ran (delay).
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
let loopSince = perf.eventLoopUtilization();
const loopFigures = () => {
  const used = perf.eventLoopUtilization(loopSince);
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  const figures = {
    utilization: Math.round(used.utilization * 1000) / 1000,
    activeMs: Math.round(used.active),
    idleMs: Math.round(used.idle),
    delayMeanMs: ms(loopDelay.mean),
    delayP50Ms: ms(loopDelay.percentile(50)),
    delayP99Ms: ms(loopDelay.percentile(99)),
    delayMaxMs: ms(loopDelay.max),
  };
  loopDelay.reset();
  loopSince = perf.eventLoopUtilization();
  return figures;
};
// SIGUSR2 writes the census so far to $SQL_CENSUS_FILE.<n> and starts a new one: the bench brackets a phase with it.
let dumps = 0;
process.on('SIGUSR2', () => {
  const file = process.env.SQL_CENSUS_FILE;
  if (file)
    writeFileSync(
      `${file}.${dumps++}`,
      JSON.stringify(
        { eventLoop: loopFigures(), ...Object.fromEntries([...counts].sort((a, b) => b[1][1] - a[1][1])) },
        null,
        1,
      ),
    );
  counts.clear();
});
