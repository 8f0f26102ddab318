#!/usr/bin/env node
// Mints a bearer token for trying the tracker with curl:
//
//   TOKEN=$(node examples/tracker/scripts/token.mjs --sub 1 --org 1 --role admin)
//   curl -H "Authorization: Bearer $TOKEN" http://localhost:3000/api/issues
//
// Signed with HS256 and TRACKER_JWT_SECRET (the example's development secret when unset), as the
// server verifies it; `--expires 2h` sets `exp` (default 12h, `never` for none).
import { parseArgs } from 'node:util';
import { SignJWT } from 'jose';

const USAGE =
  'usage: node examples/tracker/scripts/token.mjs --sub <user id> --org <organization id> --role viewer|member|admin [--expires 12h|never] [--secret <secret>]';

function fail(message) {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      sub: { type: 'string' },
      org: { type: 'string' },
      role: { type: 'string' },
      expires: { type: 'string', default: '12h' },
      secret: { type: 'string', default: process.env.TRACKER_JWT_SECRET || 'tracker-dev-secret' },
    },
  }));
} catch (error) {
  fail(error.message);
}
const positive = (name) => {
  const value = values[name];
  if (value === undefined || !/^[1-9][0-9]*$/.test(value)) fail(`--${name} must be a positive integer`);
  return Number(value);
};
const sub = positive('sub');
const org = positive('org');
if (!['viewer', 'member', 'admin'].includes(values.role)) fail('--role must be viewer, member or admin');

const token = new SignJWT({ org, role: values.role })
  .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
  .setSubject(String(sub))
  .setIssuedAt();
if (values.expires !== 'never') token.setExpirationTime(values.expires);
console.log(await token.sign(new TextEncoder().encode(values.secret)));
