#!/usr/bin/env node
// A protoc plugin (run by `buf generate`, buf.gen.yaml) that keeps what the generated descriptors drop:
// the comments of the commands a player sends. For every .proto with a `Command` message (a oneof of
// commands: every game's), it writes <file>_docs.ts beside protoc-gen-es's <file>_pb.ts:
//   export const docs: Record<string, string> = {
//     "tabula.lorenzo.v1.PlaceFamilyMember": "Place a member on a space; ...",
//     "tabula.lorenzo.v1.PlaceFamilyMember.servants": "...",        (fields that have a comment)
//   };
// The play app shows them beside each command and field of its step-by-step picker. The comments are
// the proto's own (the API reference), so the words cannot drift from the messages.
import { createEcmaScriptPlugin, getComments, runNodeJs } from "@bufbuild/protoplugin";

const text = (comments) =>
  (comments.leading || comments.trailing || "").replace(/\s*\n\s*/g, " ").trim();

function generateTs(schema) {
  for (const file of schema.files) {
    const command = file.messages.find((m) => m.name === "Command" && m.oneofs.length);
    if (!command) continue;
    const docs = {};
    for (const member of command.oneofs[0].fields) {
      if (!member.message) continue;
      docs[member.message.typeName] = text(getComments(member.message));
      for (const field of member.message.fields) {
        const said = text(getComments(field));
        if (said) docs[`${member.message.typeName}.${field.name}`] = said;
      }
    }
    const out = schema.generateFile(`${file.name}_docs.ts`);
    out.preamble(file);
    out.print("// The comments of ", file.proto.package, "'s commands and their fields (tools/protoc-gen-docs.mjs).");
    out.print("export const docs: Record<string, string> = ", JSON.stringify(docs, null, 2), ";");
  }
}

runNodeJs(createEcmaScriptPlugin({ name: "protoc-gen-docs", version: "v1", generateTs }));
