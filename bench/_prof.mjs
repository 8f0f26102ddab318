import 'reflect-metadata';
import { createApi, defineResource, memoryStore } from '@resourcery/core';
import { IsBoolean, IsInt, IsOptional, IsString, Length } from 'class-validator';
class Issue { title; orgId; priority; secret; }
IsString()(Issue.prototype, 'title'); Length(1, 200)(Issue.prototype, 'title'); IsInt()(Issue.prototype, 'orgId'); IsInt()(Issue.prototype, 'priority'); IsOptional()(Issue.prototype, 'secret'); IsBoolean()(Issue.prototype, 'secret');
const callerOf = (r) => { const [org, role] = (r.headers['x-caller'] ?? '').split(':'); return org ? { org: Number(org), role } : undefined; };
const store = memoryStore();
const secret = 'bench secret 16 chars+';
const which = process.argv[2];
const api = which === 'scope' ? createApi({ secret, resources: [defineResource({ name: 'issue', model: Issue, fields: { show: ['title','orgId','priority'] }, steps: { scope: (ctx) => ({ orgId: ctx.state.caller.org }) } })], store, state: (r) => ({ caller: callerOf(r) }) })
 : createApi({ secret, resources: [defineResource({ name: 'issue', model: Issue, access: { fields: { secret: { read: ['admin'] } } } })], store, authenticate: callerOf, tenancy: { field: 'orgId', of: (c) => c.org } });
await api.ready();
const col = store.collection({ name: 'issues', attributes: [{name:'id',type:'integer',nullable:false},{name:'title',type:'string',nullable:false},{name:'orgId',type:'integer',nullable:false},{name:'priority',type:'integer',nullable:false},{name:'secret',type:'boolean',nullable:true}], indexed: ['orgId','priority'] });
for (let i = 0; i < 10000; i++) await col.create({ title: `Issue ${i}`, orgId: 1 + (i % 10), priority: 1 + (i % 4), secret: i % 2 === 0 });
const req = { method: 'GET', path: '/issues', basePath: '/api', rawQuery: 'page=3&per_page=25', headers: { 'x-caller': '3:member' } };
const n = Number(process.argv[3] ?? 20000);
const s = process.hrtime.bigint(); for (let i = 0; i < n; i++) await api.handle(req);
console.log(which, (Number(process.hrtime.bigint() - s) / 20000 / 1000).toFixed(1));
const { compiledResource } = await import('@resourcery/core/adapter');
