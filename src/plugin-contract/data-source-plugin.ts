/**
 * The contract of a data-source plugin (`kind: 'data'`): where the shapefiles are read
 * from when they are not in one local folder, an HTTP server or an object store, say. The
 * service never downloads a file whole: it lists the catalog, asks a file's size and
 * version, and reads byte ranges (headers, `.shx` entries, records, `.dbf` rows), which it
 * keeps in a block cache keyed by the version. So a source only has to answer these four
 * questions, each stoppable by a signal; the built-in HTTP(S) and S3 sources (src/sources/)
 * are written against the same contract a third party writes against (a local folder is
 * read by the drawing workers' own positional reads).
 *
 * Lives here, below the core, for the reason basemap-plugin.ts does; the SDK re-exports it.
 */
import type { PluginLogger, SDK_VERSION } from './basemap-plugin.ts';

/** What a source knows of one file without reading it. */
export interface SourceStat {
  size: number;
  /**
   * An opaque string that changes whenever the file's content may have changed: made of what
   * the source reports (ETag and Last-Modified, or size and modification time). The service
   * keys its caches and its answers' ETags by it and hands it back to read(); a source
   * reports the same version for a file from list() and from stat(), so that either may be
   * used for reads.
   */
  version: string;
  /**
   * When the file last changed, in milliseconds since 1970, when the source knows it (an
   * answer's Last-Modified): the Last-Modified of the pictures drawn from it. Optional: a
   * picture drawn from a file without it has no Last-Modified.
   */
  modifiedMs?: number;
}

/**
 * A file of the catalog, as the source lists it, with what stat() would say of it then
 * (size, version and modifiedMs alike: the service takes a listing's entries as stats made
 * when it listed, so that a file listed costs no stat of its own until `fileCheckMs` has
 * passed; an entry that differs from stat() makes the ETag and Last-Modified flip between them).
 */
export interface SourceEntry extends SourceStat {
  /** The file's name as the source spells it, without any folder or prefix ("roads.shp"). */
  name: string;
}

export interface DataSource {
  /**
   * The source as messages and /ready name it ("s3://maps/shapes/ at https://minio.local",
   * "http://files.example.org/shapes/"): never credentials, tokens or a signed URL.
   */
  describe(): string;
  /** Every file of the catalog (not only shapefiles: the service groups them). */
  list(signal: AbortSignal): Promise<SourceEntry[]>;
  /** The file's size and version; undefined when the source has no such file. */
  stat(name: string, signal: AbortSignal): Promise<SourceStat | undefined>;
  /**
   * Up to `length` bytes of `name` from `offset`: fewer only at the end of the file (none at
   * or past it). Never the whole file when a range was asked: a server that does not honour
   * ranges is an error (DataSourceUnavailableError), not a download.
   *
   * With `version`, a file whose version is no longer that one (replaced, changed, removed)
   * throws FileChangedError, so that the caller can take the new version and read again.
   * Throws DataSourceUnavailableError when the source cannot answer (after its own timeout
   * and retry), and the signal's reason when the signal fires: reads stop there.
   */
  read(name: string, offset: number, length: number, signal: AbortSignal, version?: string): Promise<Uint8Array>;
  /** Releases what the source holds (connections, handles) when the server stops. */
  close?(): Promise<void>;
}

/** What a data-source plugin's factory gets besides its own options. */
export interface DataSourceContext {
  /** The source's id from the configuration, for messages. */
  name: string;
  logger: PluginLogger;
  /** User-Agent for outgoing HTTP requests. */
  userAgent: string;
}

/**
 * A data-source plugin: the default export of its module. `create` validates its own options
 * (throwing an Error naming the bad option) and returns the source.
 */
export interface DataSourcePlugin {
  kind: 'data';
  /** As BasemapPlugin.sdkVersion: the SDK major version the plugin was written for, as a number. */
  sdkVersion: typeof SDK_VERSION;
  /** The plugin's own name ("http", "s3", "azure-blob"), for messages. */
  name: string;
  create(options: Record<string, unknown>, context: DataSourceContext): DataSource | Promise<DataSource>;
}

/** Types a data-source plugin's default export: `export default defineDataSource({ kind: 'data', sdkVersion: 1, … })`. */
export function defineDataSource(plugin: DataSourcePlugin): DataSourcePlugin {
  return plugin;
}
