// Tabula's TypeScript client, shared by the browser bundle (browser.ts) and the Node.js test
// (node/play.test.ts): the generated messages and service descriptors (src/gen, `buf generate`)
// called over any Connect transport (Connect or gRPC-Web, JSON or binary) through the gateway.
import type { DescService, JsonValue } from "@bufbuild/protobuf";
import { fromJson, toJson } from "@bufbuild/protobuf";
import { BinaryReader } from "@bufbuild/protobuf/wire";
import { ConnectError, Code, createClient, type Transport } from "@connectrpc/connect";

export { ConnectError, Code };
export { LobbyService } from "./gen/tabula/lobby/v1/lobby_pb.js";

/** The call options that carry a token: always the Authorization header, never the URL. */
export function bearer(token: string, signal?: AbortSignal): { headers: Record<string, string>; signal?: AbortSignal } {
  return { headers: token ? { Authorization: `Bearer ${token}` } : {}, signal };
}

/** A game's rule service, found in its generated module (every game's proto under proto/ is bundled). */
export async function gameService(game: string): Promise<DescService> {
  if (!/^[a-z][a-z0-9_]*$/.test(game)) throw new Error(`not a game name: ${game}`);
  const module: Record<string, unknown> = await import(`./gen/tabula/${game}/v1/${game}_pb.ts`);
  const service = Object.values(module).find(
    (value): value is DescService => typeof value === "object" && value !== null && (value as DescService).kind === "service",
  );
  if (!service) throw new Error(`the generated module of ${game} has no service`);
  return service;
}

/**
 * The reason code of a Connect error's google.rpc.ErrorInfo detail ("" when it has none), read from the
 * detail's protobuf bytes (field 1), which every protocol carries (gRPC-Web has no JSON "debug" copy).
 */
export function reason(err: ConnectError): string {
  for (const detail of err.details) {
    if (!("type" in detail) || detail.type !== "google.rpc.ErrorInfo") continue;
    const reader = new BinaryReader(detail.value);
    while (reader.pos < reader.len) {
      const [field, wireType] = reader.tag();
      if (field === 1) return reader.string();
      reader.skip(wireType, field);
    }
  }
  return "";
}

/**
 * The message of a Connect error's google.rpc.LocalizedMessage detail ("" when it has none): the
 * refusal in the language the call asked for (its accept-language), read from the detail's bytes
 * (field 2; field 1 is its locale).
 */
export function localized(err: ConnectError): string {
  for (const detail of err.details) {
    if (!("type" in detail) || detail.type !== "google.rpc.LocalizedMessage") continue;
    const reader = new BinaryReader(detail.value);
    while (reader.pos < reader.len) {
      const [field, wireType] = reader.tag();
      if (field === 2) return reader.string();
      reader.skip(wireType, field);
    }
  }
  return "";
}

/**
 * Any method of any service called with protobuf JSON in and out, for code that is generic over games
 * (the spectator page hands these JSON objects to each game's drawing module).
 */
export class JsonClient {
  private readonly client: Record<string, (request: unknown, options: object) => unknown>;

  constructor(
    private readonly service: DescService,
    transport: Transport,
    private readonly token: string,
  ) {
    this.client = createClient(service, transport) as unknown as typeof this.client;
  }

  private method(name: string) {
    const method = this.service.methods.find((m) => m.name === name);
    if (!method) throw new Error(`${this.service.typeName} has no method ${name}`);
    return method;
  }

  /** One unary call; `timeoutMs` is its deadline (sent to the server too), none when left out. */
  async call(name: string, request: JsonValue, timeoutMs?: number): Promise<JsonValue> {
    const method = this.method(name);
    const reply = await this.client[method.localName](fromJson(method.input, request), { ...bearer(this.token), timeoutMs });
    return toJson(method.output, reply as never, { alwaysEmitImplicit: true });
  }

  async *stream(name: string, request: JsonValue, signal?: AbortSignal): AsyncGenerator<JsonValue> {
    const method = this.method(name);
    const replies = this.client[method.localName](fromJson(method.input, request), bearer(this.token, signal));
    for await (const reply of replies as AsyncIterable<never>) {
      yield toJson(method.output, reply, { alwaysEmitImplicit: true });
    }
  }
}
