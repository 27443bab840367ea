import type { StyleSettings } from '../params/style.ts';

/** A named style preset, with the theme it extends (if any) already merged in. */
export interface Theme {
  /** As spelled in the theme file, e.g. 'ShapeServerBlue'. */
  name: string;
  /** Undefined settings are left to the operation's defaults. */
  style: StyleSettings;
}
