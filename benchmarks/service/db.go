package main

import (
	"database/sql"
	"fmt"

	"github.com/go-sql-driver/mysql"
)

// dbName is the database -dsn creates its two tables in.
const dbName = "poolkit_service"

var schema = []string{
	"CREATE DATABASE IF NOT EXISTS " + dbName,
	"CREATE TABLE IF NOT EXISTS " + dbName + `.orders (
		id BIGINT NOT NULL, customer_id BIGINT NOT NULL, email VARCHAR(255) NOT NULL,
		name VARCHAR(255) NOT NULL, currency CHAR(3) NOT NULL, coupon VARCHAR(64) NULL,
		note TEXT NOT NULL, express BOOL NOT NULL, created_at DATETIME(6) NOT NULL,
		ship_street VARCHAR(255) NOT NULL, ship_city VARCHAR(255) NOT NULL,
		ship_zip VARCHAR(32) NOT NULL, ship_country VARCHAR(64) NOT NULL,
		subtotal_cents BIGINT NOT NULL, tax_cents BIGINT NOT NULL,
		shipping_cents BIGINT NOT NULL, total_cents BIGINT NOT NULL, weight_kg DOUBLE NOT NULL
	) CHARACTER SET utf8mb4`,
	"CREATE TABLE IF NOT EXISTS " + dbName + `.order_items (
		order_id BIGINT NOT NULL, line INT NOT NULL, sku VARCHAR(64) NOT NULL,
		name VARCHAR(255) NOT NULL, qty BIGINT NOT NULL, unit_cents BIGINT NOT NULL,
		weight_kg DOUBLE NOT NULL, line_cents BIGINT NOT NULL
	) CHARACTER SET utf8mb4`,
	"TRUNCATE TABLE " + dbName + ".orders",
	"TRUNCATE TABLE " + dbName + ".order_items",
}

// prepareDB creates the schema the -dsn run writes to, empty, and returns
// the DSN the servers connect with: dsn with its database set to dbName.
// With no dsn it returns "".
func prepareDB(dsn string) (string, error) {
	if dsn == "" {
		return "", nil
	}
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		return "", fmt.Errorf("-dsn: %w", err)
	}
	d, err := sql.Open("mysql", dsn)
	if err != nil {
		return "", fmt.Errorf("-dsn: %w", err)
	}
	defer d.Close()
	for _, q := range schema {
		if _, err := d.Exec(q); err != nil {
			return "", fmt.Errorf("-dsn: preparing the schema: %w", err)
		}
	}
	// The statements arrive interpolated: the session must read them as
	// sqlinterp's zero Options and the seed's escaping assume, with
	// backslash escapes.
	var mode string
	if err := d.QueryRow("SELECT @@SESSION.sql_mode").Scan(&mode); err != nil {
		return "", fmt.Errorf("-dsn: %w", err)
	}
	if containsWord(mode, "NO_BACKSLASH_ESCAPES") || containsWord(mode, "ANSI_QUOTES") {
		return "", fmt.Errorf("-dsn: the session's sql_mode %q must not hold NO_BACKSLASH_ESCAPES or ANSI_QUOTES", mode)
	}
	cfg.DBName = dbName
	return cfg.FormatDSN(), nil
}

func containsWord(list, w string) bool {
	for len(list) > 0 {
		i := 0
		for i < len(list) && list[i] != ',' {
			i++
		}
		if list[:i] == w {
			return true
		}
		if i == len(list) {
			break
		}
		list = list[i+1:]
	}
	return false
}
