/**
 * A real S3-compatible server (s3rver) on a loopback port with a temp folder, holding a
 * bucket whose objects the test puts with signed PUTs (aws4fetch, as our S3 source signs):
 * what an operator's MinIO or R2 would be to shapeshot. It checks SigV4 signatures with its
 * fixed credentials, so a request our source signed wrongly fails here as it would on S3.
 */
import type { AddressInfo } from 'node:net';
import { AwsClient } from 'aws4fetch';
import S3rver from 's3rver';
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

export async function startS3Server(bucket = 'shapes'): Promise<S3Server> {
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: makeTempDir('shapeshot-s3-'), configureBuckets: [{ name: bucket, configs: [] }] });
  const listening = await server.run();
  const { port } = listening.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new AwsClient({ ...S3RVER_CREDENTIALS, service: 's3', region: 'us-east-1', retries: 0 });
  let stopped = false;
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
      if (stopped) return;
      stopped = true;
      await server.close();
    },
  };
}
