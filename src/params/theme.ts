import type { StyleSettings } from './style.ts';

/** A named style preset, with the theme it extends (if any) already merged in: what the `theme` parameter picks (themes/ reads them from theme files). */
export interface Theme {
  /** As spelled in the theme file, e.g. 'ShapeServerBlue'. */
  name: string;
  /** Undefined settings are left to the operation's defaults. */
  style: StyleSettings;
}
