/** AWS SigV4 for Bedrock requests (aws4fetch's signer), or the bearer header of a Bedrock API key. */
import { AwsV4Signer } from 'aws4fetch'
import type { BedrockCredentials } from './key'

export interface SignOptions {
  service?: string
  /** `yyyymmddTHHMMSSZ`; now when absent (tests pin it). */
  datetime?: string
}

/** Returns the request with its Authorization (and X-Amz-Date / X-Amz-Security-Token) headers set. */
export async function signAws(
  req: { method: string; url: string; headers: Record<string, string>; body?: string },
  creds: Extract<BedrockCredentials, { kind: 'sigv4' }>,
  opts: SignOptions = {}
): Promise<Request> {
  const signer = new AwsV4Signer({
    method: req.method,
    url: req.url,
    headers: req.headers,
    body: req.body,
    accessKeyId: creds.accessKeyId,
    secretAccessKey: creds.secretAccessKey,
    sessionToken: creds.sessionToken,
    service: opts.service ?? 'bedrock',
    region: creds.region,
    datetime: opts.datetime,
  })
  const signed = await signer.sign()
  return new Request(signed.url.toString(), { method: signed.method, headers: signed.headers, body: req.body })
}

export async function authorizeBedrock(
  req: { method: string; url: string; headers: Record<string, string>; body?: string },
  creds: BedrockCredentials,
  opts: SignOptions = {}
): Promise<Request> {
  if (creds.kind === 'apiKey') {
    return new Request(req.url, { method: req.method, headers: { ...req.headers, authorization: `Bearer ${creds.apiKey}` }, body: req.body })
  }
  return signAws(req, creds, opts)
}
