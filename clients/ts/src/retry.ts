// Waiting out a rate limit, as every Tabula client should (docs/clients.md, "Errors"): a call refused with
// resource_exhausted and a google.rpc.RetryInfo detail (reason rate_limited, or quota_exceeded for watch
// streams) changed nothing on the server, so the very same request is sent again after the RetryInfo
// delay: a command keeps its commandId and expectedVersion, so it lands once however often it is sent.
// At most LIMITED_RETRIES times, each wait capped at LIMITED_WAIT_MS, as the terminal client does
// (services/client/rpc.py). resource_exhausted without a RetryInfo (a message over a size limit) is
// the same on every try and is not retried.
import { create, createFileRegistry, type DescMessage } from "@bufbuild/protobuf";
import {
  type Duration,
  durationMs,
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FileDescriptorProtoSchema,
  file_google_protobuf_duration,
} from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";

export const LIMITED_RETRIES = 3;
export const LIMITED_WAIT_MS = 5000;

// google.rpc.RetryInfo { google.protobuf.Duration retry_delay = 1; }, declared here rather than generated:
// the project generates only its own protos, and this one message is all a client needs of google/rpc.
const errorDetails = create(FileDescriptorProtoSchema, {
  name: "google/rpc/error_details.proto",
  package: "google.rpc",
  dependency: ["google/protobuf/duration.proto"],
  syntax: "proto3",
  messageType: [{
    name: "RetryInfo",
    field: [{
      name: "retry_delay",
      jsonName: "retryDelay",
      number: 1,
      label: FieldDescriptorProto_Label.OPTIONAL,
      type: FieldDescriptorProto_Type.MESSAGE,
      typeName: ".google.protobuf.Duration",
    }],
  }],
});
export const RetryInfoSchema: DescMessage = createFileRegistry(errorDetails, () => file_google_protobuf_duration)
  .getMessage("google.rpc.RetryInfo")!;

/** The RetryInfo delay of a Connect error in milliseconds (every protocol carries it), or undefined. */
export function retryDelayMs(err: ConnectError): number | undefined {
  for (const info of err.findDetails(RetryInfoSchema)) {
    const delay = (info as { retryDelay?: Duration }).retryDelay;
    if (delay) return durationMs(delay);
  }
  return undefined;
}

/** How long to wait before sending a rate-limited call again (its RetryInfo delay, at most `mostMs`);
 *  undefined when `err` is not resource_exhausted with a RetryInfo. */
export function limitedWaitMs(err: unknown, mostMs = LIMITED_WAIT_MS): number | undefined {
  if (!(err instanceof ConnectError) || err.code !== Code.ResourceExhausted) return undefined;
  const delay = retryDelayMs(err);
  return delay === undefined ? undefined : Math.min(Math.max(delay, 0), mostMs);
}

export interface LimitedOptions {
  retries?: number; // default LIMITED_RETRIES
  mostMs?: number; // default LIMITED_WAIT_MS
  onWait?: (ms: number) => void; // told before each wait: show "busy, retrying in 2 s"
  sleep?: (ms: number) => Promise<void>;
}

/**
 * `call()`, called again after the RetryInfo delay while it is refused by a rate limit. `call` must send
 * the very same request each time (build it once, outside): a command keeps its commandId.
 */
export async function retryLimited<T>(call: () => Promise<T>, options: LimitedOptions = {}): Promise<T> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let retry = 0; ; retry++) {
    try {
      return await call();
    } catch (err) {
      const wait = limitedWaitMs(err, options.mostMs ?? LIMITED_WAIT_MS);
      if (wait === undefined || retry >= (options.retries ?? LIMITED_RETRIES)) throw err;
      options.onWait?.(wait);
      await sleep(wait);
    }
  }
}
