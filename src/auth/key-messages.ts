/**
 * What a 401 says: the first answer a newcomer (or a GDAL/QGIS user who has not set a header
 * yet) meets, so it says how to send a key, not only that one is missing. It never quotes the
 * key that came: a key is a secret even when it is wrong.
 */

/**
 * GDAL's OAPIF driver (and QGIS on top of it) follows links, which never carry the key, so it
 * must send the header; `GDAL_HTTP_HEADERS` exists from GDAL 3.6, the header file before.
 * Single quotes: GDAL prints our JSON as it came, where double quotes would show escaped.
 */
const HOW_TO_SEND =
  "in the X-API-Key header or as the 'key' parameter " +
  "(GDAL's ogrinfo and ogr2ogr: --config GDAL_HTTP_HEADERS 'X-API-Key: <your key>', or GDAL_HTTP_HEADER_FILE naming a file with that line; " +
  'QGIS: an API header in the connection\'s authentication)';

/** Where a newcomer finds a key (docs/configuration.md, "The start-up key"). */
const WHICH_KEY = "The key is one of those the server is configured with or, while it has none, the start-up key it printed when it started (in the URLs it printed, after 'key=').";

export const MISSING_KEY = `Parameter 'key' is required: send an access key ${HOW_TO_SEND}. ${WHICH_KEY}`;

export const UNKNOWN_KEY = `Parameter 'key' is not a valid access key (keys are case-sensitive): send a valid one ${HOW_TO_SEND}. ${WHICH_KEY}`;
