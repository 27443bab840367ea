/** The coordinate reference systems of the sample data, as ESRI `.prj` text and proj4. */

export const WGS84_PRJ =
  'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],' +
  'PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]';

/** The `.prj` ArcGIS writes for RD New: it carries no datum shift (see RD_NEW_PROJ4). */
export const RD_NEW_PRJ =
  'PROJCS["RD_New",GEOGCS["GCS_Amersfoort",DATUM["D_Amersfoort",SPHEROID["Bessel_1841",6377397.155,299.1528128]],' +
  'PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Double_Stereographic"],' +
  'PARAMETER["False_Easting",155000.0],PARAMETER["False_Northing",463000.0],' +
  'PARAMETER["Central_Meridian",5.38763888888889],PARAMETER["Scale_Factor",0.9999079],' +
  'PARAMETER["Latitude_Of_Origin",52.15616055555555],UNIT["Meter",1.0]]';

/** EPSG:28992 with the Amersfoort–WGS84 datum shift, which puts RD data within a metre or two. */
export const RD_NEW_PROJ4 =
  '+proj=sterea +lat_0=52.15616055555555 +lon_0=5.38763888888889 +k=0.9999079 +x_0=155000 +y_0=463000 ' +
  '+ellps=bessel +towgs84=565.417,50.3319,465.552,-0.398957,0.343988,-1.8774,4.0725 +units=m +no_defs';
