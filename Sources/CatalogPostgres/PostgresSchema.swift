import AssetCatalog
/// The catalog's schema on PostgreSQL: SQLite's migrations (`SQLiteSchema`) step for step, under
/// the same names, so both engines hold the same tables, columns and constraints. The differences
/// are the engines': text columns are `COLLATE "C"` (SQLite compares bytes), integers are bigint,
/// child rows keep their order in an `ordinal` column (SQLite's rowid), and full-text search is a
/// `tsvector` with a GIN index where SQLite has an FTS5 table.
enum PostgresSchema {
    struct Migration {
        var identifier: String
        var statements: [String]
    }

    static let countColumns = ["nodes", "meshes", "points", "faces", "triangles", "primitives", "materials", "textures"]
    static let boundsColumns = ["minX", "minY", "minZ", "maxX", "maxY", "maxZ",
                                "minXMeters", "minYMeters", "minZMeters", "maxXMeters", "maxYMeters", "maxZMeters"]

    static func childTable(_ name: String, _ columns: String) -> [String] {
        ["""
        CREATE TABLE \(name) (
            assetId text COLLATE "C" NOT NULL REFERENCES asset (id) ON DELETE CASCADE,
            ordinal integer NOT NULL,
            \(columns))
        """, "CREATE INDEX \(name)_asset ON \(name) (assetId, ordinal)"]
    }

    static let migrations: [Migration] = [
        Migration(identifier: "v1 assets, names, texture references, warnings, search", statements: [
            """
            CREATE TABLE asset (
                id text COLLATE "C" PRIMARY KEY,
                root text COLLATE "C" NOT NULL,
                kind text COLLATE "C" NOT NULL CHECK (kind IN ('model', 'texture')),
                format text COLLATE "C" NOT NULL,
                byteSize bigint NOT NULL CHECK (byteSize >= 0),
                contentHash text COLLATE "C" NOT NULL,
                modifiedAt double precision NOT NULL,
                \(countColumns.map { "\($0) bigint CHECK (\($0) IS NULL OR \($0) >= 0)" }.joined(separator: ",\n    "))
                \(boundsColumns.map { ", \($0) double precision" }.joined()),
                upAxis text COLLATE "C" CHECK (upAxis IS NULL OR upAxis IN ('X', 'Y', 'Z')),
                metersPerUnit double precision,
                missingTextures bigint NOT NULL DEFAULT 0,
                warningCount bigint NOT NULL DEFAULT 0,
                error text COLLATE "C",
                thumbnail text COLLATE "C",
                indexedAt double precision NOT NULL)
            """,
            "CREATE INDEX asset_root ON asset (root)",
        ] + childTable("assetName", """
            kind text COLLATE "C" NOT NULL CHECK (kind IN ('node', 'material')),
                name text COLLATE "C" NOT NULL
            """) + childTable("textureReference", """
            path text COLLATE "C" NOT NULL,
                resolves boolean NOT NULL,
                resolvedID text COLLATE "C"
            """) + childTable("assetWarning", #"message text COLLATE "C" NOT NULL"#) + [
            """
            CREATE TABLE assetSearch (
                assetId text COLLATE "C" PRIMARY KEY REFERENCES asset (id) ON DELETE CASCADE,
                words text NOT NULL,
                document tsvector NOT NULL)
            """,
            "CREATE INDEX assetSearch_document ON assetSearch USING GIN (document)",
        ]),
        Migration(identifier: "v2 skeletons and animation", statements: [
            "ALTER TABLE asset " + CatalogRecord.animationColumns.map { "ADD COLUMN \($0) bigint CHECK (\($0) IS NULL OR \($0) >= 0)" }
                .joined(separator: ", ") + ", ADD COLUMN duration double precision CHECK (duration IS NULL OR duration >= 0)",
            "UPDATE asset SET modifiedAt = -1 WHERE kind = 'model'",
        ]),
        Migration(identifier: "v3 ARKit verdict", statements: [
            """
            ALTER TABLE asset ADD COLUMN arkitErrors bigint CHECK (arkitErrors IS NULL OR arkitErrors >= 0),
                              ADD COLUMN arkitWarnings bigint CHECK (arkitWarnings IS NULL OR arkitWarnings >= 0)
            """,
        ] + childTable("assetRule", #"rule text COLLATE "C" NOT NULL"#) + [
            "CREATE INDEX assetRule_rule ON assetRule (rule)",
            "UPDATE asset SET modifiedAt = -1 WHERE kind = 'model' AND format IN ('usda', 'usdc', 'usdz')",
        ]),
        Migration(identifier: "v4 thumbnail jobs", statements: [
            """
            CREATE TABLE thumbnailJob (
                assetId text COLLATE "C" PRIMARY KEY REFERENCES asset (id) ON DELETE CASCADE,
                contentHash text COLLATE "C" NOT NULL,
                size bigint NOT NULL CHECK (size > 0),
                view text COLLATE "C" NOT NULL,
                state text COLLATE "C" NOT NULL CHECK (state IN ('pending', 'running', 'done', 'failed')),
                worker text,
                claimedAt double precision,
                attempts bigint NOT NULL DEFAULT 0,
                error text,
                updatedAt double precision NOT NULL)
            """,
            "CREATE INDEX thumbnailJob_state ON thumbnailJob (state)",
        ]),
        // SQLite's v5 rekeys its FTS5 rows; PostgreSQL's search needs nothing. Here: trigram
        // indexes, so `name ~ x` (ILIKE '%x%' over ids and names) reads the matching rows instead
        // of every name (100 ms a query at 100,000 assets, 10 ms with them). pg_trgm ships with
        // PostgreSQL and is trusted (a database owner may create it); where it is missing or not
        // allowed, the catalog works as before, only slower on those filters.
        Migration(identifier: "v5 trigram indexes for name filters", statements: [
            """
            DO $$
            BEGIN
                IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
                    CREATE EXTENSION IF NOT EXISTS pg_trgm;
                    CREATE INDEX assetName_name_trgm ON assetName USING GIN (name gin_trgm_ops);
                    CREATE INDEX asset_id_trgm ON asset USING GIN (id gin_trgm_ops);
                END IF;
            EXCEPTION WHEN insufficient_privilege THEN
                RAISE NOTICE 'pg_trgm not created (%); name filters scan every name', SQLERRM;
            END
            $$
            """,
        ]),
        // Records became typed (`AssetFormat`); as SQLite's v6: a `.usd` row an older assetc wrote
        // for a file it could not read becomes `usda` and is read again; other formats no assetc
        // names go (child, search and job rows with them, by cascade) and the next index adds them.
        Migration(identifier: "v6 typed formats", statements: [
            "UPDATE asset SET format = 'usda', modifiedAt = -1 WHERE format = 'usd'",
            "DELETE FROM asset WHERE format NOT IN ('usda', 'usdc', 'usdz', 'dae', 'gltf', 'glb', 'obj', 'stl', 'ply', 'png', 'jpeg')",
        ]),
        // Assets indexed from a bucket keep their object's entity tag (SQLite's v7).
        Migration(identifier: "v7 object entity tags", statements: ["ALTER TABLE asset ADD COLUMN etag text"]),
        // Gaussian splats (SQLite's v8); a PLY read before them was a point cloud and is read again.
        Migration(identifier: "v8 splats", statements: [
            """
            ALTER TABLE asset ADD COLUMN splats bigint CHECK (splats IS NULL OR splats >= 0),
                              ADD COLUMN splatSHDegree bigint CHECK (splatSHDegree IS NULL OR splatSHDegree BETWEEN 0 AND 3)
            """,
            "UPDATE asset SET modifiedAt = -1 WHERE kind = 'model' AND format = 'ply'",
        ]),
    ]
}
