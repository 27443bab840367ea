/**
 * The same files served three ways, as the tests that hold remote sources to the local folder
 * need them: a local folder, nginx over HTTP (`dataDir: http://…/`) and s3rver
 * (`dataDir: s3://bucket/prefix/`, `s3.endpoint`, credentials in the standard variables the
 * workers inherit, as in production).
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { startNginx } from './nginx.ts';
import { S3RVER_CREDENTIALS, startS3Server } from './s3-server.ts';
import { startServer, type TestServer } from './server.ts';
import { makeTempDir } from './temp-dir.ts';

export interface ThreeSources {
  local: TestServer;
  overHttp: TestServer;
  overS3: TestServer;
  /** Stops the servers and the sources, and gives the environment back. */
  stop(): Promise<void>;
}

const PREFIX = 'data/';

/** `files` (paths) copied into a folder and into a bucket, each served by shapeshot with `config`. */
export async function serveFromThreeSources(files: readonly string[], config: Record<string, unknown>): Promise<ThreeSources> {
  const folder = makeTempDir('shapeshot-three-sources-');
  for (const path of files) copyFileSync(path, join(folder, basename(path)));
  const s3 = await startS3Server();
  for (const path of files) await s3.put(`${PREFIX}${basename(path)}`, readFileSync(path));
  const savedEnv = { ...process.env };
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey, AWS_REGION: 'us-east-1' });
  const local = await startServer({ ...config, dataDir: folder });
  const overS3 = await startServer({ ...config, dataDir: `s3://${s3.bucket}/${PREFIX}`, s3: { endpoint: s3.endpoint } });
  const nginx = await startNginx(folder);
  const overHttp = await startServer({ ...config, dataDir: nginx.url });
  return {
    local,
    overHttp,
    overS3,
    async stop() {
      await Promise.all([local.close(), overHttp.close(), overS3.close()]);
      await nginx.stop();
      await s3.stop();
      process.env = savedEnv;
    },
  };
}
