/**
 * A real S3-compatible server (s3rver) on a loopback port with a temp folder, in a process
 * of its own, holding a bucket whose objects the test puts with signed PUTs (aws4fetch, as
 * our S3 source signs): what an operator's MinIO or R2 would be to shapeshot. It checks
 * SigV4 signatures with its fixed credentials, so a request our source signed wrongly fails
 * here as it would on S3.
 *
 * Its own process because s3rver makes continuation tokens with DES, which OpenSSL 3 keeps in
 * its legacy provider: that process starts with --openssl-legacy-provider, the tests' does not.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { AwsClient } from 'aws4fetch';
import { makeTempDir } from './temp-dir.ts';

/** The only credentials s3rver accepts. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface S3Server {
  /** The endpoint, `http://127.0.0.1:<port>`. */
  endpoint: string;
  bucket: string;
  /** Puts `bytes` at `key` (replacing what was there). */
  put(key: string, bytes: Uint8Array): Promise<void>;
  stop(): Promise<void>;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Started with the folder and the bucket as arguments; says its port on its first line. */
const LAUNCH = `
const S3rver = require('s3rver');
const [directory, bucket] = process.argv.slice(1);
new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] })
  .run()
  .then((address) => console.log(address.port));
`;

export async function startS3Server(bucket = 'shapes'): Promise<S3Server> {
  const child = spawn(process.execPath, ['--openssl-legacy-provider', '-e', LAUNCH, makeTempDir('shapeshot-s3-'), bucket], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    void exited.then(() => reject(new Error('s3rver stopped at start-up')));
  });
  const endpoint = `http://127.0.0.1:${Number(firstLine)}`;
  const client = new AwsClient({ ...S3RVER_CREDENTIALS, service: 's3', region: 'us-east-1', retries: 0 });
  return {
    endpoint,
    bucket,
    async put(key, bytes) {
      const url = `${endpoint}/${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
      const response = await client.fetch(url, { method: 'PUT', body: Buffer.from(bytes) });
      await response.body?.cancel();
      if (!response.ok) throw new Error(`s3rver refused the PUT of ${key}: ${response.status}`);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
