/** One entry of a fid list: a feature, or one child of a multi-part feature. */
export interface FeatureRef {
  /** The id as listed, trimmed: '5' or '5.2'. */
  text: string;
  /** 0-based record position in the shapefile. */
  parent: number;
  /** 0-based child index, for 'parent.child'. */
  child?: number;
}

const ID = /^(\d{1,9})(?:\.(\d{1,9}))?$/;

/** Parses '1, 2,5.2'; undefined when any entry is not an id. Repeats are kept, in order. */
export function parseFidList(text: string): FeatureRef[] | undefined {
  const refs: FeatureRef[] = [];
  for (const entry of text.split(',')) {
    const match = ID.exec(entry.trim());
    if (!match) return undefined;
    refs.push({
      text: entry.trim(),
      parent: Number(match[1]),
      ...(match[2] === undefined ? {} : { child: Number(match[2]) }),
    });
  }
  return refs;
}

/**
 * A list of feature ids as it crosses between threads: typed arrays, whatever its length
 * (a `where=` selection may hold 100,000 ids; as objects they cost the event loop a
 * structured clone each way).
 */
export interface FeatureList {
  /** Each entry's 0-based record position. */
  parents: Uint32Array;
  /** Each entry's child index, -1 for the whole feature; absent when every entry is whole. */
  children?: Int32Array;
  /** Each entry as listed, where the list came from `fid` (it may read '05'); absent for ids a selection made. */
  texts?: string[];
}

/** The list of `refs`, as listed. */
export function featureList(refs: readonly FeatureRef[]): FeatureList {
  const whole = refs.every((ref) => ref.child === undefined);
  return {
    parents: Uint32Array.from(refs, (ref) => ref.parent),
    ...(whole ? {} : { children: Int32Array.from(refs, (ref) => ref.child ?? -1) }),
    texts: refs.map((ref) => ref.text),
  };
}

/** Whole features `fids`, as a selection found them. */
export function wholeFeatures(fids: Uint32Array): FeatureList {
  return { parents: fids };
}

export function listLength(list: FeatureList): number {
  return list.parents.length;
}

/** Entry `index` of `list`. */
export function refAt(list: FeatureList, index: number): FeatureRef {
  const parent = list.parents[index];
  const child = list.children?.[index] ?? -1;
  return { text: list.texts?.[index] ?? (child < 0 ? String(parent) : `${parent}.${child}`), parent, ...(child < 0 ? {} : { child }) };
}

/** Every entry of `list`, as references. */
export function refsOf(list: FeatureList): FeatureRef[] {
  return Array.from({ length: listLength(list) }, (_, index) => refAt(list, index));
}

/** Entry `index` alone, as a list of one. */
export function entryList(list: FeatureList, index: number): FeatureList {
  return featureList([refAt(list, index)]);
}

/** The entries of `list` at `indexes` (ascending), in that order. */
export function listSubset(list: FeatureList, indexes: readonly number[]): FeatureList {
  return {
    parents: Uint32Array.from(indexes, (index) => list.parents[index]),
    ...(list.children ? { children: Int32Array.from(indexes, (index) => list.children![index]) } : {}),
    ...(list.texts ? { texts: indexes.map((index) => list.texts![index]) } : {}),
  };
}
