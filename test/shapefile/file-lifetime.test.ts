import { afterEach, describe, expect, it, vi } from 'vitest';
import { OverloadedError } from '../../src/errors.ts';
import { createFileLifetime } from '../../src/shapefile/file-lifetime.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('the open files of a retired version', () => {
  it('stay open through the grace period, then close once no read is in flight', async () => {
    vi.useFakeTimers();
    let closed = 0;
    const lifetime = createFileLifetime('towns', async () => void closed++, 5_000);
    let finishRead!: (value: string) => void;
    const slowRead = lifetime.use(() => new Promise<string>((resolve) => (finishRead = resolve)));

    lifetime.retire();
    expect(await lifetime.use(async () => 'during grace')).toBe('during grace');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(closed).toBe(0);

    finishRead('slow');
    expect(await slowRead).toBe('slow');
    expect(closed).toBe(1);
    await expect(lifetime.use(async () => 'late')).rejects.toBeInstanceOf(OverloadedError);
  });

  it('stay open while the version is current', async () => {
    vi.useFakeTimers();
    let closed = 0;
    const lifetime = createFileLifetime('towns', async () => void closed++, 5_000);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await lifetime.use(async () => 'read')).toBe('read');
    expect(closed).toBe(0);
  });
});
