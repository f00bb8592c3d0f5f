// The live view of an interactive worker (asg-worker --serve --foxglove) checked with other
// people's code: @foxglove/ws-protocol's FoxgloveClient over the ws package, ajv against
// @foxglove/schemas' JSON Schemas.
//
//   node live_view_test.mjs view URL
//     connects to URL (a worker with a loaded scenario, paused at time 0): serverInfo with the
//     "services" capability, the channels of the MCAP recording with their schemas (the foxglove.*
//     ones equal to @foxglove/schemas'), subscribes to every channel, calls StepSimulation through
//     the protocol and sees the simulated time advance, steps the run to its end and receives at
//     least one message of every channel, each valid against its channel's JSON Schema with
//     timestamps that never go backwards; a too long StepSimulation is a serviceCallFailure.
//   node live_view_test.mjs refused URL
//     the upgrade is refused with HTTP 401 and no serverInfo comes.
import assert from "node:assert/strict";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { FoxgloveClient } = require("@foxglove/ws-protocol");
const WebSocket = require("ws");
const foxglove = require("@foxglove/schemas/jsonschema");
const Ajv = require("ajv").default;

const kChannels = {
  "/tf": "foxglove.FrameTransform",
  "/vehicle/pose": "foxglove.PoseInFrame",
  "/vehicle/odometry": "asg.VehicleOdometry",
  "/scene": "foxglove.SceneUpdate",
  "/events": "asg.Event",
  "/log": "foxglove.Log",
};
const kServices = ["StepSimulation", "SetSimulationState", "SetEntityState", "CaptureScene"];

/// Resolves with the first event `name` of `client`, or rejects after `seconds`.
function Next(client, name, seconds = 10) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${name} within ${seconds} s`)), seconds * 1000);
    client.on(name, (event) => {
      clearTimeout(timer);
      resolve(event);
    });
  });
}

/// A service caller: call(name, body) resolves with the response body, or rejects with the
/// serviceCallFailure's message.
function ServiceCaller(client, services) {
  const pending = new Map();
  let next_call = 1;
  client.on("serviceCallResponse", (response) => {
    assert.equal(response.encoding, "json");
    const text = new TextDecoder().decode(response.data);
    pending.get(response.callId)?.resolve(JSON.parse(text));
    pending.delete(response.callId);
  });
  client.on("serviceCallFailure", (failure) => {
    pending.get(failure.callId)?.reject(new Error(failure.message));
    pending.delete(failure.callId);
  });
  return (name, body) =>
    new Promise((resolve, reject) => {
      const service = services.find((s) => s.name === name);
      assert.ok(service, `service ${name} is advertised`);
      const callId = next_call++;
      pending.set(callId, { resolve, reject });
      const data = new TextEncoder().encode(JSON.stringify(body));
      client.sendServiceCallRequest({ serviceId: service.id, callId, encoding: "json", data });
    });
}

/// Checks the advertised channels and returns a validator per channel id.
function CheckChannels(channels) {
  const topics = Object.fromEntries(channels.map((c) => [c.topic, c.schemaName]));
  assert.deepEqual(topics, kChannels, "the channels of the recording");
  const ajv = new Ajv({ strict: false, allErrors: false });
  const validators = new Map();
  for (const channel of channels) {
    assert.equal(channel.encoding, "json", `${channel.topic}: encoding`);
    assert.equal(channel.schemaEncoding, "jsonschema", `${channel.topic}: schema encoding`);
    const schema = JSON.parse(channel.schema);
    if (channel.schemaName.startsWith("foxglove.")) {
      const published = foxglove[channel.schemaName.slice("foxglove.".length)];
      assert.deepEqual(schema, published, `${channel.schemaName} differs from @foxglove/schemas'`);
    }
    validators.set(channel.id, { topic: channel.topic, validate: ajv.compile(schema) });
  }
  return validators;
}

async function View(url) {
  const client = new FoxgloveClient({ ws: new WebSocket(url, [FoxgloveClient.SUPPORTED_SUBPROTOCOL]) });
  const info = Next(client, "serverInfo");
  const advertised = Next(client, "advertise");
  const advertised_services = Next(client, "advertiseServices");
  assert.ok((await info).capabilities.includes("services"), "the services capability");
  const channels = await advertised;
  const services = await advertised_services;
  for (const name of kServices) assert.ok(services.some((s) => s.name === name), `service ${name}`);
  const validators = CheckChannels(channels);
  const call = ServiceCaller(client, services);

  // Every channel subscribed; every message valid, each channel's timestamps in order.
  const received = new Map();  // topic -> {count, last timestamp, last message}
  const topic_of = new Map();
  client.on("message", (event) => {
    const channel = validators.get(topic_of.get(event.subscriptionId));
    const message = JSON.parse(new TextDecoder().decode(event.data));
    assert.ok(channel.validate(message),
              `${channel.topic}: ${JSON.stringify(channel.validate.errors)} in ${JSON.stringify(message).slice(0, 300)}`);
    const seen = received.get(channel.topic) ?? { count: 0, last: -1n };
    assert.ok(event.timestamp >= seen.last, `${channel.topic}: time went backwards`);
    received.set(channel.topic, { count: seen.count + 1, last: event.timestamp, message });
  });
  for (const channel of channels) topic_of.set(client.subscribe(channel.id), channel.id);

  // StepSimulation through the protocol: the simulated time advances.
  const state = await call("GetSimulationState", {});
  assert.equal(state.state.state, 2, `paused at the start: ${JSON.stringify(state)}`);
  const stepped = await call("StepSimulation", { steps: 10 });
  assert.equal(stepped.result.result, 1, `StepSimulation: ${JSON.stringify(stepped)}`);
  assert.ok(stepped.simulation_time > 0, `StepSimulation's time ${stepped.simulation_time}`);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const stepped_to = received.get("/vehicle/odometry")?.last ?? 0n;
  const wanted = stepped.simulation_time * 1e9;
  assert.ok(Math.abs(Number(stepped_to) - wanted) < 1e3,
            `/vehicle/odometry at ${stepped_to} ns, the stepped time ${wanted} ns`);
  await assert.rejects(call("StepSimulation", { steps: 1001 }), /at most 1000 steps/);

  // The vehicle's channels follow the steps; the run stepped to its end gives /events and /log.
  for (let i = 0; i < 200 && !received.has("/events"); ++i) {
    const reply = await call("StepSimulation", { steps: 1000 });
    if (reply.result.result !== 1) break;  // the run ended during these steps
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  for (const topic of Object.keys(kChannels)) {
    assert.ok(received.has(topic), `no message on ${topic}`);
  }
  const odometry = received.get("/vehicle/odometry");
  assert.ok(odometry.last > 0n, "the odometry's time advanced");
  const event = received.get("/events").message;
  assert.equal(event.kind, "termination");
  const counts = Object.fromEntries([...received].map(([topic, seen]) => [topic, seen.count]));
  console.log(`live_view_test: ${JSON.stringify(counts)}, ended with ${event.termination_reason_name}` +
              ` at ${event.vehicle_sim_time} s`);
  client.close();
}

async function Refused(url) {
  const ws = new WebSocket(url, [FoxgloveClient.SUPPORTED_SUBPROTOCOL]);
  const status = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("neither refused nor closed within 10 s")), 10000);
    ws.on("unexpected-response", (request, response) => {
      clearTimeout(timer);
      resolve(response.statusCode);
    });
    ws.on("message", () => reject(new Error("a refused client got a message")));
    ws.on("open", () => reject(new Error("a client without the token was let in")));
    ws.on("error", () => {});
  });
  assert.equal(status, 401, "the upgrade's HTTP status");
  ws.terminate();
}

const [mode, url] = process.argv.slice(2);
try {
  if (mode === "view") await View(url);
  else if (mode === "refused") await Refused(url);
  else throw new Error("usage: live_view_test.mjs view|refused URL");
  process.exit(0);
} catch (error) {
  console.error(`live_view_test ${mode} ${url}: ${error.stack}`);
  process.exit(1);
}
