import { describe, expect, it } from '@jest/globals';
import { DeliveryGate } from '../src/delivery-gate.js';

describe('delivery gate', () => {
  it('runs deliveries while open', async () => {
    const gate = new DeliveryGate();
    const ran: number[] = [];
    expect(await gate.admit(async () => void ran.push(1))).toBe(true);
    expect(ran).toEqual([1]);
  });

  it('closes only after the deliveries in flight finished, so their commits happen before kafkajs stops', async () => {
    const gate = new DeliveryGate();
    const order: string[] = [];
    let finish!: () => void;
    const delivery = gate.admit(async () => {
      await new Promise<void>((resolve) => (finish = resolve));
      order.push('delivery committed');
    });
    const closing = gate.close().then(() => order.push('gate closed'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual([]);
    finish();
    await Promise.all([delivery, closing]);
    expect(order).toEqual(['delivery committed', 'gate closed']);
  });

  it('turns deliveries away once closed, leaving their records uncommitted', async () => {
    const gate = new DeliveryGate();
    await gate.close();
    let ran = false;
    expect(await gate.admit(async () => void (ran = true))).toBe(false);
    expect(ran).toBe(false);
    expect(gate.isClosed).toBe(true);
  });

  it('still closes when a delivery in flight fails', async () => {
    const gate = new DeliveryGate();
    const failing = expect(gate.admit(() => Promise.reject(new Error('commit failed')))).rejects.toThrow(
      'commit failed',
    );
    await gate.close();
    await failing;
  });
});
