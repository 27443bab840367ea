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

/** The topology in the TopoJSON file at `source` (a file of an installed package). */
export function cachedTopology<Objects extends Topology['objects']>(source: string): CompactTopology<Objects> {
  const kept = readDerived<Meta>(source, 'compact');
  const [coordinates, arcStarts] = kept?.arrays ?? [];
  if (kept !== undefined && coordinates instanceof Float64Array && arcStarts instanceof Uint32Array) {
    return { objects: kept.meta.objects as Objects, transform: kept.meta.transform, coordinates, arcStarts };
  }
  const topology = readCompactTopology<Objects>(readFileSync(source));
  keepDerived(source, 'compact', { objects: topology.objects, transform: topology.transform } satisfies Meta, [topology.coordinates, topology.arcStarts]);
  return topology;
}
