/**
 * Writes data/samples/support-calls.jsonl: a reproducible (seeded) log of calls an imaginary help
 * desk makes today to hosted chat models, for `layerline audit` (lib/audits):
 *
 * - ~300 ticket classifications through `gpt-4o-mini` (a system prompt and the ticket; the answer is
 *   one of five labels), in the documented format, with latency and cost;
 * - ~60 short reply drafts through `gpt-4o`, logged as OpenAI chat-completion request/response
 *   pairs as they are (plus `latency_ms` and `cost`).
 *
 * Run: `npx tsx scripts/generate-audit-sample.ts` (same seed → the same file, byte for byte).
 */
import fs from "node:fs";
import path from "node:path";

const SEED = 20261124;
let state = SEED >>> 0;
/** mulberry32 */
function rand(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

const TEMPLATES: Record<string, string[]> = {
  billing: [
    "I was charged twice for my {plan} subscription this month",
    "Can I get a refund for the invoice from {month}?",
    "My credit card payment failed but the money left my account",
    "Why did my bill go up? The invoice shows an extra charge",
    "Please send me a VAT invoice for the {plan} plan payment",
  ],
  bug: [
    "The app crashes every time I open the {screen} screen",
    "Error 500 when I click save on the {screen} page",
    "The {screen} page is blank after the latest update",
    "Export button does nothing, the download never starts",
    "Sync is broken: changes on my phone never show up on the web",
  ],
  account: [
    "I forgot my password and the reset email never arrives",
    "How do I change the email address on my account?",
    "Please delete my account and all my data",
    "I am locked out after enabling two-factor login",
    "Can I add a second admin user to our team account?",
  ],
  feature_request: [
    "It would be great to have a dark mode in the {screen} view",
    "Please add an option to export reports as Excel",
    "Could you support single sign-on with our identity provider?",
    "We would love keyboard shortcuts for the {screen} editor",
    "Feature idea: let us schedule reports to be emailed weekly",
  ],
  shipping: [
    "My order {order} has not arrived yet, where is the parcel?",
    "The tracking number for order {order} does not work",
    "The package arrived damaged, the box was crushed",
    "Can I change the delivery address for order {order}?",
    "Shipping to Canada is taking three weeks, is that normal?",
  ],
};
const FILL = {
  plan: ["Pro", "Team", "Starter", "annual"],
  month: ["March", "April", "May", "June"],
  screen: ["dashboard", "settings", "reports", "billing", "projects"],
  order: ["#10482", "#20931", "#33310", "#47022", "#58119"],
};
const OPENERS = ["", "Hi, ", "Hello team, ", "Urgent: ", "Hey! "];
const CLOSERS = ["", " Thanks.", " Please help.", " Thank you!", " Any update?"];

function fill(t: string): string {
  return t.replace(/\{(\w+)\}/g, (_, k: keyof typeof FILL) => pick(FILL[k]));
}

const SYSTEM =
  "You are a support triage assistant. Classify the ticket as exactly one of: billing, bug, account, feature_request, shipping. Answer with the label only.";

const REPLIES: Record<string, string> = {
  billing:
    "Sorry about the billing trouble. I have asked our billing team to check your invoice and will reply within a day.",
  bug: "Thanks for reporting this bug. Our engineers are looking into it; please tell us your app version.",
  account: "I can help with your account. Please confirm the email address you signed up with.",
  feature_request: "Thanks for the idea! I have shared it with our product team.",
  shipping: "Sorry for the delay. I have asked the carrier for an update on your parcel.",
};

const lines: string[] = [];
let t = Date.parse("2026-11-02T08:00:00Z");
const labels = Object.keys(TEMPLATES);
for (let i = 0; i < 300; i++) {
  const label = pick(labels);
  const ticket = `${pick(OPENERS)}${fill(pick(TEMPLATES[label]))}${pick(CLOSERS)}`;
  t += Math.floor(rand() * 240_000);
  const promptTokens = 60 + Math.ceil(ticket.length / 4);
  const cost = round(promptTokens * 0.15e-6 + 2 * 0.6e-6, 8);
  lines.push(
    JSON.stringify({
      input: [
        { role: "system", content: SYSTEM },
        { role: "user", content: ticket },
      ],
      output: label,
      latency_ms: Math.round(380 + rand() * 420 + (rand() < 0.05 ? 1500 : 0)),
      cost,
      model: "gpt-4o-mini",
      timestamp: new Date(t).toISOString(),
    }),
  );
}
for (let i = 0; i < 60; i++) {
  const label = pick(labels);
  const ticket = fill(pick(TEMPLATES[label]));
  t += Math.floor(rand() * 600_000);
  const reply = REPLIES[label];
  const usage = {
    prompt_tokens: 40 + Math.ceil(ticket.length / 4),
    completion_tokens: Math.ceil(reply.length / 4),
  };
  lines.push(
    JSON.stringify({
      request: {
        model: "gpt-4o",
        messages: [
          { role: "system", content: "Draft a short, friendly reply to the customer." },
          { role: "user", content: ticket },
        ],
        temperature: 0.2,
      },
      response: {
        id: `chatcmpl-sample${String(i).padStart(3, "0")}`,
        object: "chat.completion",
        created: Math.floor(t / 1000),
        model: "gpt-4o-2024-08-06",
        choices: [{ index: 0, message: { role: "assistant", content: reply }, finish_reason: "stop" }],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      },
      latency_ms: Math.round(900 + rand() * 1400),
      cost: round(usage.prompt_tokens * 2.5e-6 + usage.completion_tokens * 10e-6, 8),
    }),
  );
}

const out = path.join(import.meta.dirname, "..", "data", "samples", "support-calls.jsonl");
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${lines.join("\n")}\n`);
console.log(`wrote ${lines.length} calls to ${path.relative(process.cwd(), out)}`);
