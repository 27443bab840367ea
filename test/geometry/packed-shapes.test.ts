import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { packedBuffers, packShapes, unpackShapes } from '../../src/geometry/packed-shapes.ts';
import { linesShape, pointsShape, polygonsShape, type Shape } from '../../src/geometry/shape.ts';

const plain = (shape: Shape) => ({ kind: shape.kind, xy: [...shape.xy], parts: [...shape.parts], polygons: [...shape.polygons] });

describe('packed shapes', () => {
  const shapes = [
    pointsShape(Float64Array.of(1, 2, 3, 4)),
    linesShape(Float64Array.of(0, 0, 1, 1, 2, 0, 5, 5, 6, 6), Uint32Array.of(0, 3, 5)),
    polygonsShape(Float64Array.of(0, 0, 4, 0, 4, 4, 0, 0, 1, 1, 2, 1, 2, 2, 1, 1), Uint32Array.of(0, 4, 8), Uint32Array.of(0, 2)),
    pointsShape(Float64Array.of(9, 9)),
  ];

  it('unpack to the shapes that were packed, in order', () => {
    expect(unpackShapes(packShapes(shapes)).map(plain)).toEqual(shapes.map(plain));
  });

  it('cross to another thread as five buffers whatever their number, and arrive whole', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => pointsShape(Float64Array.of(i, -i)));
    const packed = packShapes(many);
    expect(packedBuffers(packed)).toHaveLength(5);
    const { port1, port2 } = new MessageChannel();
    const arrived = new Promise<typeof packed>((resolve) => port2.once('message', (message) => resolve(message as typeof packed)));
    port1.postMessage(packed, packedBuffers(packed));
    const unpacked = unpackShapes(await arrived);
    port1.close();
    expect(packed.xy.length).toBe(0); // moved, not copied
    expect(unpacked).toHaveLength(10_000);
    expect([...unpacked[9_999].xy]).toEqual([9_999, -9_999]);
  });

  it('pack nothing into empty arrays', () => {
    expect(unpackShapes(packShapes([]))).toEqual([]);
  });
});
