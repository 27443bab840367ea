/**
 * GDAL 3.6's polygon organisation (which rings are outer rings, which holes each takes, in
 * which order), the public face of this folder: the rest of it (the measures, the sort, the
 * envelope heap, the edge indexes) is how assembleRings keeps to n log n, and no one else's.
 */
export { assembleRings, type RingAssembly } from './assemble-rings.ts';
