// NestJS + @dataui/crud + TypeORM as their guides set them up: a `Book` entity with
// class-validator rules (the example's: strings of 1 to 500 characters, both required on create,
// optional on update), a `TypeOrmCrudService`, a `@Crud()` controller, TypeORM on PostgreSQL (a
// pool of 10) or better-sqlite3 (WAL, synchronous=FULL) over the table the benchmark made
// (`synchronize: false`). Compiled with TypeScript's own emitter (decorator metadata, which Nest's
// dependency injection reads) by ../nest-typeorm.mjs, which serves it.
import 'reflect-metadata';
import { Crud, type CrudController, CrudValidationGroups } from '@dataui/crud';
import { TypeOrmCrudService } from '@dataui/crud-typeorm';
import { Controller, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { InjectRepository, TypeOrmModule, type TypeOrmModuleOptions } from '@nestjs/typeorm';
import { IsOptional, IsString, Length } from 'class-validator';
import { Column, Entity, PrimaryGeneratedColumn, Repository } from 'typeorm';

const { UPDATE } = CrudValidationGroups;

@Entity('books')
export class Book {
  @PrimaryGeneratedColumn()
  id!: number;

  @IsOptional({ groups: [UPDATE] })
  @IsString({ always: true })
  @Length(1, 500, { always: true })
  @Column()
  name!: string;

  @IsOptional({ groups: [UPDATE] })
  @IsString({ always: true })
  @Length(1, 500, { always: true })
  @Column()
  author!: string;
}

@Injectable()
export class BooksService extends TypeOrmCrudService<Book> {
  constructor(@InjectRepository(Book) repository: Repository<Book>) {
    super(repository);
  }
}

@Crud({
  model: { type: Book },
  routes: { only: ['getManyBase', 'getOneBase', 'createOneBase', 'updateOneBase', 'deleteOneBase'] },
  query: { limit: 25, maxLimit: 100, alwaysPaginate: true },
})
@Controller('api/books')
export class BooksController implements CrudController<Book> {
  constructor(public service: BooksService) {}
}

/** Where the database is: PostgreSQL's connection string or SQLite's file. */
export interface BooksDatabase {
  kind: 'postgres' | 'sqlite';
  location: string;
  poolSize: number;
}

function typeOrmOptions(database: BooksDatabase): TypeOrmModuleOptions {
  const common = { entities: [Book], synchronize: false, logging: false };
  if (database.kind === 'postgres') {
    return { ...common, type: 'postgres', url: database.location, poolSize: database.poolSize };
  }
  return {
    ...common,
    type: 'better-sqlite3',
    database: database.location,
    enableWAL: true,
    prepareDatabase: (db: { pragma(source: string): unknown }) => {
      db.pragma(`synchronous = ${process.env.BENCH_SQLITE_SYNCHRONOUS === 'normal' ? 'NORMAL' : 'FULL'}`);
    },
  };
}

/** The Nest application over `database`, initialized: its Express instance serves the routes. */
export async function createBooksApp(database: BooksDatabase): Promise<NestExpressApplication> {
  @Module({
    imports: [TypeOrmModule.forRoot(typeOrmOptions(database)), TypeOrmModule.forFeature([Book])],
    controllers: [BooksController],
    providers: [BooksService],
  })
  class AppModule {}

  const app = await NestFactory.create<NestExpressApplication>(AppModule, { logger: false });
  app.disable('x-powered-by');
  app.set('etag', false);
  await app.init();
  return app;
}
