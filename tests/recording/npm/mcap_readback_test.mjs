// Reads MCAP recordings of ASG Farm runs back with other people's code and checks them against
// the run folders they were made from.
//
//   node mcap_readback_test.mjs RECORDINGS_DOC SCENARIO_FOLDER [RECORDING]
//
// RECORDINGS_DOC is docs/recordings.md, whose channel table names every channel and its schema;
// RECORDING is by default run.mcap in SCENARIO_FOLDER.
//
// Checks: the whole file streams record by record with CRCs validated (@mcap/core's
// McapStreamReader); the indexed reader (McapIndexedReader) finds exactly the channels and
// schemas of docs/recordings.md's table, the statistics match the messages read (count per channel, first and last
// log time, chunk count); every chunk decompresses (fzstd) to its CRC; the trajectory channels
// hold one message per trajectory.csv row with its time; log times never go backwards in a
// channel; every message validates against its JSON Schema (foxglove.* from @foxglove/schemas,
// byte-for-byte the schema embedded in the file; asg.* the embedded one); the "scenario" metadata
// matches result.json. Exits 1 naming the first failed check.
import { McapIndexedReader, McapStreamReader } from "@mcap/core";
import { decompress } from "fzstd";
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

// CommonJS packages, loaded as such.
const require = createRequire(import.meta.url);
const foxglove = require("@foxglove/schemas/jsonschema");
const Ajv = require("ajv").default;

const kTrajectoryTopics = ["/tf", "/vehicle/pose", "/vehicle/odometry"];
const decompressHandlers = {
  zstd: (data, size) => decompress(data, new Uint8Array(Number(size))),
};

/// The channels docs/recordings.md's table lists: {topic: schema name}.
async function DocumentedChannels(doc) {
  const text = await fs.readFile(doc, "utf8");
  const table = text.slice(text.indexOf("## Channels"));
  const channels = {};
  for (const match of table.matchAll(/^\| `(\/[^`]*)` \| `([^`]+)` \|/gm)) {
    channels[match[1]] = match[2];
  }
  assert.ok(Object.keys(channels).length > 0, `${doc}: no channel table`);
  return channels;
}

/// Every record of the file through the streaming reader, CRCs validated.
function StreamAll(bytes) {
  const reader = new McapStreamReader({ decompressHandlers, validateCrcs: true });
  reader.append(bytes);
  const counts = {};
  let record;
  while ((record = reader.nextRecord())) counts[record.type] = (counts[record.type] ?? 0) + 1;
  assert.ok(reader.done(), "the stream reader did not reach the footer's magic");
  return counts;
}

/// The sim times [ns] of trajectory.csv's rows (its t column, "<sec>.<9 digits>").
async function TrajectoryTimes(folder) {
  const lines = (await fs.readFile(path.join(folder, "trajectory.csv"), "utf8")).trim().split("\n");
  const t = lines[0].split(",").indexOf("t");
  return lines.slice(1).map((line) => {
    const [sec, frac = "0"] = line.split(",")[t].split(".");
    return BigInt(sec) * 1000000000n + BigInt(frac.padEnd(9, "0").slice(0, 9));
  });
}

/// A JSON Schema validator of each schema of `reader`, checked against @foxglove/schemas.
function Validators(reader) {
  const ajv = new Ajv({ strict: false, allErrors: false });
  const validators = new Map();
  for (const [id, schema] of reader.schemasById) {
    assert.equal(schema.encoding, "jsonschema", `schema ${schema.name}: encoding`);
    const embedded = JSON.parse(new TextDecoder().decode(schema.data));
    if (schema.name.startsWith("foxglove.")) {
      const published = foxglove[schema.name.slice("foxglove.".length)];
      assert.ok(published, `${schema.name} is not in @foxglove/schemas`);
      assert.deepEqual(embedded, published, `${schema.name} differs from @foxglove/schemas'`);
    }
    validators.set(id, ajv.compile(embedded));
  }
  return validators;
}

/// The channels and schemas of the summary.
function Checchannels(reader, channels) {
  const topics = {};
  for (const channel of reader.channelsById.values()) {
    assert.equal(channel.messageEncoding, "json", `${channel.topic}: message encoding`);
    topics[channel.topic] = reader.schemasById.get(channel.schemaId)?.name;
  }
  assert.deepEqual(topics, channels, "channels and their schemas (docs/recordings.md)");
}

/// Every message read by the index: time order per channel, schema validity; returns the log
/// times per topic.
async function ReadMessages(reader, validators) {
  const times = {};
  for await (const message of reader.readMessages()) {
    const topic = reader.channelsById.get(message.channelId).topic;
    const list = (times[topic] ??= []);
    if (list.length > 0) {
      assert.ok(message.logTime >= list.at(-1), `${topic}: log time goes back at ${message.logTime}`);
    }
    list.push(message.logTime);
    const validate = validators.get(reader.channelsById.get(message.channelId).schemaId);
    const json = JSON.parse(new TextDecoder().decode(message.data));
    assert.ok(validate(json), `${topic} at ${message.logTime}: ${JSON.stringify(validate.errors)}`);
  }
  return times;
}

/// The statistics record against what was read.
function CheckStatistics(reader, times, channels) {
  const stats = reader.statistics;
  assert.ok(stats, "no Statistics record");
  const all = Object.values(times).flat();
  assert.equal(stats.messageCount, BigInt(all.length), "statistics: message count");
  assert.equal(stats.channelCount, Object.keys(channels).length, "statistics: channel count");
  assert.equal(stats.chunkCount, reader.chunkIndexes.length, "statistics: chunk count");
  assert.equal(stats.messageStartTime, all.reduce((a, b) => (b < a ? b : a)), "statistics: start");
  assert.equal(stats.messageEndTime, all.reduce((a, b) => (b > a ? b : a)), "statistics: end");
  for (const [id, channel] of reader.channelsById) {
    assert.equal(stats.channelMessageCounts.get(id), BigInt(times[channel.topic]?.length ?? 0),
                 `statistics: messages of ${channel.topic}`);
  }
}

async function CheckRecording(doc, folder, file) {
  const channels = await DocumentedChannels(doc);
  const bytes = new Uint8Array(await fs.readFile(file));
  const streamed = StreamAll(bytes);
  // The stream reader opens chunks (their CRCs checked) and yields the records inside.
  for (const type of ["Header", "Message", "MessageIndex", "DataEnd", "Statistics", "ChunkIndex",
                      "SummaryOffset", "Metadata", "MetadataIndex", "Footer"]) {
    assert.ok(streamed[type] > 0, `no ${type} record`);
  }
  const readable = {
    size: async () => BigInt(bytes.length),
    read: async (offset, length) => bytes.subarray(Number(offset), Number(offset + length)),
  };
  const reader = await McapIndexedReader.Initialize({ readable, decompressHandlers });
  Checchannels(reader, channels);
  const times = await ReadMessages(reader, Validators(reader));
  CheckStatistics(reader, times, channels);
  const trajectory = await TrajectoryTimes(folder);
  for (const topic of kTrajectoryTopics) {
    assert.deepEqual(times[topic], trajectory, `${topic}: one message per trajectory.csv row`);
  }
  assert.equal(times["/scene"]?.length, 1, "/scene: one message");
  assert.equal(times["/events"]?.length, 1, "/events: one message");
  const resultText = await fs.readFile(path.join(folder, "result.json"), "utf8");
  const result = JSON.parse(resultText);
  const metadata = [];
  for await (const record of reader.readMetadata({ name: "scenario" })) metadata.push(record);
  assert.equal(metadata.length, 1, "one scenario metadata record");
  const fields = metadata[0].metadata;
  assert.equal(fields.get("scenario_number"), String(result.scenario_number), "scenario_number");
  // The seed is a 64-bit integer: read from the text, as a double would round it.
  assert.equal(fields.get("seed"), /"seed": (\d+)/.exec(resultText)[1], "seed");
  assert.equal(fields.get("termination_reason_name"), result.termination_reason_name);
  console.log(`${file}: ${bytes.length} bytes, ${reader.chunkIndexes.length} chunk(s), ` +
              `${reader.statistics.messageCount} messages, ${trajectory.length} samples: ok`);
}

const [doc, folder, file] = process.argv.slice(2);
try {
  await CheckRecording(doc, folder, file ?? path.join(folder, "run.mcap"));
} catch (error) {
  console.error(`mcap_readback_test: ${file ?? folder}: ${error.message}`);
  process.exit(1);
}
