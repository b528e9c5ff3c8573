package logfmt_test

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
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

func ExampleAccessLog() {
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		logfmt.AccessLine(w).String("user", "ann") // added to this request's line
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, `{"id":42}`)
	})
	// Put AccessLog outside httpcompress.Handler to count the bytes sent:
	// logfmt.AccessLog(httpcompress.Handler(api), os.Stderr).
	h := logfmt.AccessLog(api, withoutClock{os.Stdout})

	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/orders", nil))
	// Output:
	// method=POST path=/orders status=201 bytes=9 user=ann
}

// withoutClock drops the time and duration pairs, which differ from run
// to run, so that the example's output can be checked.
type withoutClock struct{ w io.Writer }

func (c withoutClock) Write(p []byte) (int, error) {
	var kept []string
	for _, f := range strings.Fields(string(p)) {
		if !strings.HasPrefix(f, "time=") && !strings.HasPrefix(f, "duration=") {
			kept = append(kept, f)
		}
	}
	_, err := io.WriteString(c.w, strings.Join(kept, " ")+"\n")
	return len(p), err
}
