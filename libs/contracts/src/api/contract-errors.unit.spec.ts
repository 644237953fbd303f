import { describe, expect, it } from '@jest/globals';
import { isRetriable } from '@reelstream/errors';
import { UnknownEventTypeError } from '../events/upcasting.js';
import { OperatorsConfigError } from '../operators.js';

describe("contracts' error classes are of the kernel's family", () => {
  it('gives the unreadable-event and configuration errors their code and no retry, keeping their names for logs', () => {
    const unknown = new UnknownEventTypeError('Nope');
    expect([unknown.name, unknown.code, unknown.retriable]).toEqual([
      'UnknownEventTypeError',
      'EVENT_NOT_READABLE',
      false,
    ]);
    const config = new OperatorsConfigError('operators.json', ['operators[0].id: required']);
    expect([config.name, config.code, isRetriable(config)]).toEqual([
      'OperatorsConfigError',
      'CONFIGURATION_INVALID',
      false,
    ]);
  });
});
