package logfmt_test

import (
	"errors"
	"log/slog"
	"os"
	"time"

	"github.com/poolkit/poolkit/logfmt"
)

func ExampleLine() {
	t := time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC)

	var l logfmt.Line // the zero value is ready; End hands its buffer back
	l.Time("time", t)
	l.String("path", "/search?q=flowers") // holds '=', so it is quoted
	l.Int("status", 200)
	l.Duration("took", 1500*time.Microsecond)
	l.Err("err", errors.New(`open "a.txt": permission denied`))
	if err := l.End(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// time=2006-01-02T15:04:05Z path="/search?q=flowers" status=200 took=1.5ms err="open \"a.txt\": permission denied"
}

func ExampleNewHandler() {
	h := logfmt.NewHandler(os.Stdout, &slog.HandlerOptions{
		Level: slog.LevelDebug,
		// Drop the time so that the output below stays the same.
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey && len(groups) == 0 {
				return slog.Attr{}
			}
			return a
		},
	})
	logger := slog.New(h).With("service", "search").WithGroup("req")
	logger.Debug("query parsed", "q", "tulips & roses", "terms", 2)
	logger.Warn("slow\nquery", slog.Group("db", slog.Duration("took", 2*time.Second)))
	// Output:
	// level=DEBUG msg="query parsed" service=search req.q="tulips & roses" req.terms=2
	// level=WARN msg="slow\nquery" service=search req.db.took=2s
}

func ExampleAppendValue() {
	for _, v := range []string{"plain", "two words", "a=b", "tab\there", "bad\xffutf8", ""} {
		os.Stdout.Write(logfmt.AppendValue(nil, v))
		os.Stdout.WriteString("\n")
	}
	// Output:
	// plain
	// "two words"
	// "a=b"
	// "tab\there"
	// "bad\ufffdutf8"
	// ""
}
