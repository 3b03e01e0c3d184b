import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Slots } from './slots';

const late = () => new Error('late');

it('grants up to its size at once, then in order as slots are released', async () => {
  const slots = new Slots(2);
  const order: string[] = [];
  await slots.acquire(Number.POSITIVE_INFINITY, late);
  await slots.acquire(Number.POSITIVE_INFINITY, late);
  const third = slots.acquire(Number.POSITIVE_INFINITY, late).then(() => order.push('third'));
  const fourth = slots.acquire(Number.POSITIVE_INFINITY, late).then(() => order.push('fourth'));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(order, [], 'both wait while two slots are held');
  slots.release();
  await third;
  slots.release();
  await fourth;
  assert.deepEqual(order, ['third', 'fourth']);
});

it('a waiter past its deadline is rejected and leaves the line; the next one still gets the slot', async () => {
  const slots = new Slots(1);
  await slots.acquire(Number.POSITIVE_INFINITY, late);
  await assert.rejects(slots.acquire(Date.now() - 1, late), /late/);
  const next = slots.acquire(Number.POSITIVE_INFINITY, late);
  slots.release();
  await next;
});
