import { describe, expect, it } from "vitest";
import {
  detectInCell,
  ibanValid,
  luhnValid,
  maskValue,
  nameColumnKind,
  ssnValid,
} from "@/lib/server/modules/datasets/pii-detectors";
import { call, signUpWithKey } from "../helpers";
import { csv, startDatasetTestApp, upload, waitForTask } from "./datasets-helpers";

const { app } = await startDatasetTestApp("ds-pii");

const PLANTED = csv([
  ["id", "customer_name", "email", "phone", "card", "iban", "ssn", "ip", "notes", "amount", "signup_date"],
  [
    1,
    "Jane Doe",
    "jane.doe@example.com",
    "+1 415 555 2671",
    "4111 1111 1111 1111",
    "DE89 3704 0044 0532 0130 00",
    "123-45-6789",
    "192.168.1.20",
    "call (415) 555-0199 after 5",
    12.5,
    "2024-01-15",
  ],
  [
    2,
    "John Smith",
    "j.smith@mail.example.org",
    "020 7946 0958",
    "5500005555555559",
    "GB82 WEST 1234 5698 7654 32",
    "078-12-3456",
    "2001:db8::8a2e:370:7334",
    "paid",
    7,
    "2024-02-01",
  ],
  [
    3,
    "María García",
    "",
    "415-555-2671",
    "378282246310005",
    "",
    "",
    "10.0.0.7",
    "mail me: maria@example.net",
    99.99,
    "2024-03-09",
  ],
  [
    4,
    "Li Wei",
    "",
    "",
    "4111111111111112",
    "DE00 1234 5678 9012 3456 78",
    "000-12-3456",
    "",
    "order 2024-03-09T10:30:00Z",
    1234567890,
    "2024-04-12",
  ],
]);

const CLEAN = csv([
  [
    "order_id",
    "product_name",
    "sku",
    "quantity",
    "unit_price",
    "total",
    "ordered_at",
    "time",
    "version",
    "uuid",
    "lat",
    "lon",
    "zip",
    "isbn",
  ],
  ...Array.from({ length: 200 }, (_, i) => [
    100000 + i,
    ["Blue Widget", "Steel Chair", "USB Cable", "Desk Lamp"][i % 4],
    `SKU-${String(i).padStart(6, "0")}`,
    (i % 7) + 1,
    (19.99 + i).toFixed(2),
    ((19.99 + i) * ((i % 7) + 1)).toFixed(2),
    `2024-0${(i % 9) + 1}-${String((i % 28) + 1).padStart(2, "0")}`,
    `${String(i % 24).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}:00`,
    `${i % 5}.${i % 10}.${i % 3}`,
    `550e8400-e29b-41d4-a716-${String(446655440000 + i).padStart(12, "0")}`,
    (37.7749 + i / 1000).toFixed(4),
    (-122.4194 - i / 1000).toFixed(4),
    String(10000 + i * 37).slice(0, 5),
    9780306406157 + i * 10,
  ]),
]);

async function scan(key: string, datasetId: string, versionId: string) {
  const started = await call(app, "POST", `/api/v1/datasets/${datasetId}/versions/${versionId}/pii-scan`, {
    key,
  });
  expect(started.status).toBe(202);
  expect(started.json).toMatchObject({ kind: "pii_scan", dataset_id: datasetId, version_id: versionId });
  expect(started.json.task_id).toBe(started.json.id);
  const task = await waitForTask(app, key, started.json.task_id);
  expect(task.state).toBe("succeeded");
  expect(task.progress).toBe(1);
  const version = await call(app, "GET", `/api/v1/datasets/${datasetId}/versions/${versionId}`, { key });
  return { task, report: version.json.pii_report };
}

describe("PII scan through the API", () => {
  it("finds planted values per column, counts them and masks the examples", async () => {
    const { key } = await signUpWithKey(app);
    const ds = await upload(app, key, PLANTED, "customers.csv");
    expect(ds.status).toBe(201);
    const { task, report } = await scan(key, ds.json.dataset.id, ds.json.version.id);
    expect(report.task_id).toBe(task.id);
    expect(report.has_pii).toBe(true);
    expect(report.rows_scanned).toBe(4);
    expect(report.columns).toEqual({
      customer_name: { person_name: 4 },
      email: { email: 2 },
      phone: { phone: 3 },
      card: { payment_card: 3 },
      iban: { iban: 2 },
      ssn: { national_id: 2 }, // 000-12-3456 is never issued
      ip: { ip_address: 3 },
      notes: { phone: 1, email: 1 },
    });
    const examples = (column: string, kind: string) =>
      report.findings.find((f: { column: string; kind: string }) => f.column === column && f.kind === kind)
        .examples;
    expect(examples("card", "payment_card")).toContain("**** **** **** 1111");
    expect(examples("email", "email")).toContain("j***@e***.com");
    expect(examples("ssn", "national_id").sort()).toEqual(["***-**-3456", "***-**-6789"]);
    expect(examples("customer_name", "person_name")).toContain("J*** D***");
    // No raw value reaches the report.
    const text = JSON.stringify(report);
    for (const raw of [
      "jane.doe@example.com",
      "4111 1111 1111 1111",
      "123-45-6789",
      "DE89 3704",
      "Jane Doe",
      "415 555 2671",
    ]) {
      expect(text).not.toContain(raw);
    }
  });

  it("stays quiet on ordinary data: numbers, dates, times, ids, versions, coordinates", async () => {
    const { key } = await signUpWithKey(app);
    const ds = await upload(app, key, CLEAN, "orders.csv");
    expect(ds.status).toBe(201);
    const { report } = await scan(key, ds.json.dataset.id, ds.json.version.id);
    expect(report.findings).toEqual([]);
    expect(report.has_pii).toBe(false);
    expect(report.rows_scanned).toBe(200);
    expect(report.cells_scanned).toBe(200 * 14);
  });

  it("scans text corpora line by line", async () => {
    const { key } = await signUpWithKey(app);
    const ds = await upload(
      app,
      key,
      "Dear team,\nwrite to alice@example.com or bob@example.org.\nThanks!\n",
      "mail.txt",
    );
    const { report } = await scan(key, ds.json.dataset.id, ds.json.version.id);
    expect(report.columns).toEqual({ text: { email: 1 } });
    expect(report.findings[0].examples.sort()).toEqual(["a***@e***.com", "b***@e***.org"]);
  });

  it("scans only versions the caller owns; built-ins are read-only", async () => {
    const a = await signUpWithKey(app);
    const b = await signUpWithKey(app);
    const ds = await upload(app, a.key, PLANTED);
    const url = `/api/v1/datasets/${ds.json.dataset.id}/versions/${ds.json.version.id}/pii-scan`;
    expect((await call(app, "POST", url, { key: b.key })).status).toBe(404);
    await call(app, "PUT", `/api/v1/datasets/${ds.json.dataset.id}`, {
      key: a.key,
      body: { visibility: "public" },
    });
    expect((await call(app, "POST", url, { key: b.key })).status).toBe(403);
    expect(
      (
        await call(app, "POST", `/api/v1/datasets/${ds.json.dataset.id}/versions/dsv_nope/pii-scan`, {
          key: a.key,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call(app, "POST", "/api/v1/datasets/builtin-iris/versions/builtin-iris-v1/pii-scan", {
          key: a.key,
        })
      ).status,
    ).toBe(403);
    const started = await call(app, "POST", url, { key: a.key });
    // another user cannot poll the task
    expect(
      (await call(app, "GET", `/api/v1/datasets/tasks/${started.json.task_id}`, { key: b.key })).status,
    ).toBe(404);
    expect((await call(app, "GET", "/api/v1/datasets/tasks/tsk_missing", { key: a.key })).status).toBe(404);
    await waitForTask(app, a.key, started.json.task_id);
  });
});

describe("PII detectors", () => {
  it("check the checksums", () => {
    expect(luhnValid("4111111111111111")).toBe(true);
    expect(luhnValid("4111111111111112")).toBe(false);
    expect(ibanValid("DE89 3704 0044 0532 0130 00")).toBe(true);
    expect(ibanValid("DE89 3704 0044 0532 0130 01")).toBe(false);
    expect(ibanValid("GB82WEST12345698765432")).toBe(true);
    expect(ibanValid("GB82WEST1234569876543")).toBe(false); // wrong length for GB
    expect(ssnValid("123", "45", "6789")).toBe(true);
    for (const [a, g, s] of [
      ["000", "12", "3456"],
      ["666", "12", "3456"],
      ["912", "12", "3456"],
      ["123", "00", "4567"],
      ["123", "45", "0000"],
    ]) {
      expect(ssnValid(a, g, s)).toBe(false);
    }
  });

  it("find each kind", () => {
    const kinds = (v: string, name: "single" | "full" | null = null) =>
      detectInCell(v, name).map((d) => d.kind);
    expect(kinds("jane.doe+news@example.co.uk")).toEqual(["email"]);
    expect(kinds("+44 20 7946 0958")).toEqual(["phone"]);
    expect(kinds("(415) 555-2671")).toEqual(["phone"]);
    expect(kinds("06 12 34 56 78")).toEqual(["phone"]);
    expect(kinds("5500-0055-5555-5559")).toEqual(["payment_card"]);
    expect(kinds("3782 822463 10005")).toEqual(["payment_card"]);
    expect(kinds("FR14 2004 1010 0505 0001 3M02 606")).toEqual(["iban"]);
    expect(kinds("SSN 123-45-6789")).toEqual(["national_id"]);
    expect(kinds("from 8.8.8.8 to fe80::1")).toEqual(["ip_address", "ip_address"]);
    expect(kinds("Ada Lovelace", "full")).toEqual(["person_name"]);
    expect(kinds("Ada", "single")).toEqual(["person_name"]);
  });

  it("stay quiet on ordinary values", () => {
    const ordinary = [
      "12345",
      "3.14159",
      "-122.4194",
      "1,234,567.89",
      "1e10",
      "2024-01-15",
      "2024-01-15T10:30:00Z",
      "15/01/2024",
      "10:30:45",
      "1234567890",
      "1700000000000",
      "4111111111111112",
      "9780306406157",
      "987-65-4321",
      "000-12-3456",
      "v1.2.3",
      "3.0.1",
      "550e8400-e29b-41d4-a716-446655440000",
      "SKU-000123",
      "ORD-2024-000123",
      "DE00 1234 5678",
      "ab:cd:ef",
      "12:30",
      "Blue Widget",
      "N/A",
    ];
    for (const v of ordinary) expect(detectInCell(v), v).toEqual([]);
    // Names only in name columns; product names and acronyms are not people.
    expect(detectInCell("Jane Doe")).toEqual([]);
    expect(detectInCell("ACME Corp", "full")).toEqual([]);
    expect(detectInCell("widget", "full")).toEqual([]);
  });

  it("recognise name columns", () => {
    expect(nameColumnKind("first_name")).toBe("single");
    expect(nameColumnKind("LastName")).toBe("single");
    expect(nameColumnKind("Customer Name")).toBe("full");
    expect(nameColumnKind("name")).toBe("full");
    for (const c of [
      "product_name",
      "filename",
      "file_name",
      "hostname",
      "username",
      "company_name",
      "species",
    ]) {
      expect(nameColumnKind(c), c).toBeNull();
    }
  });

  it("mask without revealing the value", () => {
    expect(maskValue("payment_card", "4111 1111 1111 1111")).toBe("**** **** **** 1111");
    expect(maskValue("iban", "DE89 3704 0044 0532 0130 00")).toBe("DE****************3000");
    expect(maskValue("phone", "+1 415 555 2671")).toBe("+* *** *** **71");
    expect(maskValue("ip_address", "192.168.1.20")).toBe("192.*.*.*");
    expect(maskValue("person_name", "Ada Lovelace")).toBe("A*** L***");
  });
});
