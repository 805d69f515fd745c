// The retry helper of src/retry.ts, without a server: a Connect error as the client receives it from the
// gateway (its details as type name and protobuf bytes), the RetryInfo delay read from it, and the very
// same request sent again after that delay while the call is rate-limited (bounded, the wait capped).
// Run by tests/unit/client/test_ts_retry.py (`node --test dist/node/retry.test.js`).
import assert from "node:assert/strict";
import { test } from "node:test";
import { Code, ConnectError } from "@connectrpc/connect";
import { LIMITED_RETRIES, limitedWaitMs, retryDelayMs, retryLimited } from "../retry.js";

// The RetryInfo of a 2.5 s delay as shared/errors.py builds it (to_status of a ResourceExhausted):
// RetryInfo(retry_delay=Duration(seconds=2, nanos=500000000)).SerializeToString()
const RETRY_2500 = { type: "google.rpc.RetryInfo", value: new Uint8Array([10, 8, 8, 2, 16, 128, 202, 181, 238, 1]) };
const ERROR_INFO = { type: "google.rpc.ErrorInfo", value: new Uint8Array([10, 12, ...new TextEncoder().encode("rate_limited")]) };

function refused(code: Code, ...details: { type: string; value: Uint8Array }[]): ConnectError {
  const err = new ConnectError("too many calls", code);
  err.details.push(...details);
  return err;
}

test("the RetryInfo delay is read from the error's details", () => {
  assert.equal(retryDelayMs(refused(Code.ResourceExhausted, ERROR_INFO, RETRY_2500)), 2500);
  assert.equal(retryDelayMs(refused(Code.ResourceExhausted, ERROR_INFO)), undefined);
});

test("only resource_exhausted with a RetryInfo is waited for, the wait capped", () => {
  assert.equal(limitedWaitMs(refused(Code.ResourceExhausted, RETRY_2500)), 2500);
  assert.equal(limitedWaitMs(refused(Code.ResourceExhausted, RETRY_2500), 1000), 1000);
  assert.equal(limitedWaitMs(refused(Code.ResourceExhausted, ERROR_INFO)), undefined); // e.g. too big
  assert.equal(limitedWaitMs(refused(Code.Unavailable, RETRY_2500)), undefined);
  assert.equal(limitedWaitMs(new Error("not a Connect error")), undefined);
});

test("a rate-limited call is sent again with the same request after the delay", async () => {
  const request = { matchId: "m1", expectedVersion: 7n, commandId: "c1" };
  const sent: unknown[] = [];
  const answers: (Error | string)[] = [refused(Code.ResourceExhausted, RETRY_2500), refused(Code.ResourceExhausted, RETRY_2500), "ok"];
  const slept: number[] = [];
  const told: number[] = [];
  const reply = await retryLimited(async () => {
    sent.push(request);
    const answer = answers.shift()!;
    if (answer instanceof Error) throw answer;
    return answer;
  }, { onWait: (ms) => told.push(ms), sleep: async (ms) => { slept.push(ms); } });
  assert.equal(reply, "ok");
  assert.deepEqual(sent, [request, request, request]);
  assert.deepEqual(slept, [2500, 2500]);
  assert.deepEqual(told, slept);
});

test("a call still limited after a few tries, or refused otherwise, fails with its error", async () => {
  let calls = 0;
  const limited = refused(Code.ResourceExhausted, RETRY_2500);
  await assert.rejects(
    retryLimited(async () => { calls += 1; throw limited; }, { sleep: async () => {} }),
    (err) => err === limited,
  );
  assert.equal(calls, 1 + LIMITED_RETRIES);
  calls = 0;
  const stale = refused(Code.Aborted);
  await assert.rejects(retryLimited(async () => { calls += 1; throw stale; }), (err) => err === stale);
  assert.equal(calls, 1);
});
