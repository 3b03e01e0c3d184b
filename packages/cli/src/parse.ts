/** Parsers of option values: a wrong value is a usage error, reported by commander. */
import { InvalidArgumentError } from 'commander';

export const csv = (value: string): string[] => value.split(',').filter(Boolean);

export function integer(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max)
      throw new InvalidArgumentError(`an integer from ${min} to ${max}`);
    return n;
  };
}
