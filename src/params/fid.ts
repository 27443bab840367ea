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
