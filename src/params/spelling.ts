/**
 * Parameter names as the interface spells them. Queries are matched case-insensitively
 * (their names are lower-cased before validation); messages and the API description use
 * these spellings.
 */
const SPELLING = new Map(
  [
    'file', 'fid', 'size', 'buffer', 'singleImage', 'includeHotSpots', 'theme', 'reduceTol', 'noCache', 'format', 'key',
    'lineColor', 'lineWidth', 'fillColor', 'bgColor1', 'bgColor2', 'bgAngle', 'grid', 'gridColor', 'gridSpace',
    'culture', 'type', 'useBoundingBox', 'zoom', 'where', 'hotSpotFields', 'scale',
    'styleBy', 'classify', 'classes', 'palette', 'reversePalette', 'nullColor', 'labelField', 'labelSize', 'labelColor',
    'labelHalo', 'legend', 'legendPosition',
  ].map((name) => [name.toLowerCase(), name]),
);

/** The interface's spelling of a lower-cased parameter name; undefined for a name it does not have. */
export function spelledParameter(name: string): string | undefined {
  return SPELLING.get(name);
}

/** Whether `name` (lower-cased) is a parameter of some operation of the interface. */
export function isParameterName(name: string): boolean {
  return SPELLING.has(name);
}
