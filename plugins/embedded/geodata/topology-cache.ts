/**
 * world-atlas's topologies in their compact form (compact-topology.ts), derived from the JSON
 * once per installation and kept (derived-files.ts): reading 1:10m's 3.6 MB of JSON costs a
 * cold process 100–250 ms of its first map, reading its compact form back a few.
 */
import { readFileSync } from 'node:fs';
import type { Topology } from 'topojson-specification';
import { readCompactTopology, type CompactTopology } from './compact-topology.ts';
import { keepDerived, readDerived } from './derived-files.ts';

type Meta = Pick<Topology, 'objects' | 'transform'>;

/** compact-topology.ts's version: raise it when it reads a file into other numbers. */
const DERIVATION = 'compact-topology 1';

/** The topology in the TopoJSON file at `source` (a file of an installed package). */
export function cachedTopology<Objects extends Topology['objects']>(source: string): CompactTopology<Objects> {
  const kept = readDerived(source, 'compact', DERIVATION);
  const [coordinates, arcStarts] = kept?.arrays ?? [];
  const meta = kept?.meta as Partial<Meta> | undefined;
  if (coordinates instanceof Float64Array && arcStarts instanceof Uint32Array && typeof meta?.objects === 'object' && meta.objects !== null) {
    return { objects: meta.objects as Objects, transform: meta.transform, coordinates, arcStarts };
  }
  const topology = readCompactTopology<Objects>(readFileSync(source));
  keepDerived(source, 'compact', DERIVATION, { objects: topology.objects, transform: topology.transform } satisfies Meta, [topology.coordinates, topology.arcStarts]);
  return topology;
}
