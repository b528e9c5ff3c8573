// Package lib builds pools for package ctor.
package lib

import "sync"

// NewPool returns a fresh pool.
func NewPool() *sync.Pool {
	return &sync.Pool{New: func() any { return new([]byte) }}
}

// NewPoolMaybe returns a fresh pool, built one of two ways.
func NewPoolMaybe(big bool) *sync.Pool {
	if big {
		return &sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}
	}
	return new(sync.Pool)
}

var shared sync.Pool

// Shared returns the package's pool, which is in use.
func Shared() *sync.Pool { return &shared }

// Cached returns a fresh pool the first time and the same one after.
func Cached() *sync.Pool {
	if cached == nil {
		cached = &sync.Pool{}
	}
	return cached
}

var cached *sync.Pool

// App is a value holding a pool, as a web framework's application does.
type App struct {
	pool sync.Pool
	name string
}

// NewApp builds an App in a local variable, sets it up, and returns it.
func NewApp(name string) *App {
	app := &App{pool: sync.Pool{New: func() any { return new([]byte) }}}
	app.name = name
	if name == "" {
		app.name = "default"
		return app
	}
	return app
}

// NewAppVar builds an App through a declared variable, assigned twice.
func NewAppVar(big bool) *App {
	var a = new(App)
	if big {
		a = &App{name: "big"}
	}
	return a
}

var defaultApp App

// Reused returns a fresh App unless asked for the default one.
func Reused(def bool) *App {
	app := &App{}
	if def {
		app = &defaultApp
	}
	return app
}

// Overwritten returns a fresh pointer whose struct is overwritten by a
// copy of the default App.
func Overwritten() *App {
	app := new(App)
	*app = defaultApp
	return app
}

// Pointed returns a fresh pointer that a helper may replace through its
// address.
func Pointed() *App {
	app := &App{}
	replace(&app)
	return app
}

func replace(a **App) { *a = &defaultApp }
