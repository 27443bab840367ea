/**
 * Which data source the configuration names, and that source made: the local folder (a
 * `dataDir` path), HTTP(S) (an `http(s)://` dataDir), S3 (an `s3://` dataDir, with `s3`'s
 * endpoint, region and addressing), or a third party's data-source plugin (`dataSource`, by
 * path or npm package name, loaded as basemap plugins are: plugin-contract/load-plugin.ts).
 * Both threads that read the data make their own source from the same setting: the main
 * thread lists the catalog and stats files, each drawing worker reads byte ranges. So the
 * setting is plain data, and it is what the workers are started with.
 */
import { resolve } from 'node:path';
import type { Config } from '../config/schema.ts';
import type { PluginLogger } from '../plugin-contract/basemap-plugin.ts';
import type { DataSource, DataSourcePlugin } from '../plugin-contract/data-source-plugin.ts';
import { DATA_SOURCE_PLUGIN, loadPlugin } from '../plugin-contract/load-plugin.ts';
import { createHttpSource } from './http-source.ts';
import { createS3Source } from './s3-source.ts';

/** A local folder (read by the workers' own positional reads), or a source made by a plugin, built in or not. */
export type SourceSetting = { folder: string } | RemoteSetting;

export interface RemoteSetting {
  /** 'http' and 's3' are built in; anything else is a plugin's package name or path. */
  plugin: string;
  options: Record<string, unknown>;
  userAgent: string;
}

const BUILT_IN: Record<string, (options: Record<string, unknown>, userAgent: string) => DataSource> = {
  http: (options, userAgent) => createHttpSource({ ...(options as { url: string }), userAgent }),
  s3: (options, userAgent) => createS3Source({ ...(options as { url: string }), userAgent }),
};

/** The source the configuration names. */
export function sourceSetting(config: Pick<Config, 'dataDir' | 's3' | 'dataSource' | 'basemaps'>): SourceSetting {
  const userAgent = config.basemaps.userAgent;
  if (config.dataSource) return { plugin: config.dataSource.plugin, options: config.dataSource.options, userAgent };
  const { dataDir } = config;
  if (/^https?:\/\//i.test(dataDir)) return { plugin: 'http', options: { url: dataDir }, userAgent };
  if (/^s3:\/\//i.test(dataDir)) return { plugin: 's3', options: { url: dataDir, ...config.s3 }, userAgent };
  return { folder: resolve(dataDir) };
}

/** Whether the setting names a remote source (anything but the local folder). */
export function isRemote(setting: SourceSetting): setting is RemoteSetting {
  return 'plugin' in setting;
}

/** The source of `setting`; an Error naming the plugin when it cannot be loaded or refuses its options. */
export async function openDataSource(setting: RemoteSetting, logger: PluginLogger): Promise<DataSource> {
  const { plugin, options, userAgent } = setting;
  // Own keys only: a plugin named 'toString' is a package to load, not Object.prototype's.
  const builtIn = Object.hasOwn(BUILT_IN, plugin) ? BUILT_IN[plugin] : undefined;
  try {
    if (builtIn) return builtIn(options, userAgent);
    return await (await loadPlugin<DataSourcePlugin>(plugin, DATA_SOURCE_PLUGIN)).create(options, { name: plugin, logger, userAgent });
  } catch (error) {
    throw new Error(`Data source '${plugin}' cannot start: ${(error as Error).message}`);
  }
}
