package jsonpool_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/poolkit/poolkit/internal/goenv"
	"github.com/poolkit/poolkit/internal/race"
	"github.com/poolkit/poolkit/jsonpool"
)

// corpusNames are the JSON benchmark corpora that ship with Go, under
// $GOROOT/src/encoding/json/internal/jsontest/testdata (Go 1.25 and later).
var corpusNames = []string{"twitter_status", "citm_catalog", "canada_geometry", "golang_source"}

var (
	corpusOnce sync.Once
	corpusData map[string][]byte
	corpusErr  error
)

// corpus returns the decompressed corpora, skipping the test when the Go
// installation does not have them.
func corpus(tb testing.TB) map[string][]byte {
	tb.Helper()
	corpusOnce.Do(func() {
		goroot, err := goenv.GOROOT()
		if err != nil {
			corpusErr = err
			return
		}
		dir := filepath.Join(goroot, "src", "encoding", "json", "internal", "jsontest", "testdata")
		dec, err := zstd.NewReader(nil)
		if err != nil {
			corpusErr = err
			return
		}
		defer dec.Close()
		corpusData = map[string][]byte{}
		for _, name := range corpusNames {
			zs, err := os.ReadFile(filepath.Join(dir, name+".json.zst"))
			if err != nil {
				corpusErr = err
				return
			}
			b, err := dec.DecodeAll(zs, nil)
			if err != nil {
				corpusErr = err
				return
			}
			corpusData[name] = b
		}
	})
	if corpusErr != nil {
		if os.IsNotExist(corpusErr) {
			tb.Skipf("Go's JSON corpora are not installed (need Go 1.25+): %v", corpusErr)
		}
		tb.Fatal(corpusErr)
	}
	return corpusData
}

// Each corpus round-trips through jsonpool to the same values, and the same
// bytes, as through encoding/json.
func TestCorporaRoundTrip(t *testing.T) {
	anyPool := jsonpool.NewPool[any]()
	for name, data := range corpus(t) {
		t.Run(name, func(t *testing.T) {
			if race.Enabled && name != "twitter_status" && name != "citm_catalog" {
				// Ten times slower under the race detector, and a single
				// goroutine: the run without -race covers it.
				t.Skip("large corpus skipped under -race")
			}
			var want any
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			rounds := 1
			if len(data) < 1<<20 {
				rounds = 2 // fresh, then pooled decoder state; larger documents drop theirs
			}
			for round := 0; round < rounds; round++ {
				got, err := jsonpool.Unmarshal(anyPool, data)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(*got, want) {
					t.Fatal("Unmarshal differs from json.Unmarshal")
				}
				anyPool.Put(got)

				got, err = jsonpool.Decode(anyPool, bytes.NewReader(data))
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(*got, want) {
					t.Fatal("Decode differs from json.Unmarshal")
				}

				wantJSON, err := json.Marshal(want)
				if err != nil {
					t.Fatal(err)
				}
				gotJSON, err := jsonpool.Marshal(nil, *got)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(gotJSON, wantJSON) {
					t.Fatal("Marshal differs from json.Marshal")
				}
				var enc, wantEnc bytes.Buffer
				if err := jsonpool.Encode(&enc, *got); err != nil {
					t.Fatal(err)
				}
				if err := json.NewEncoder(&wantEnc).Encode(want); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(enc.Bytes(), wantEnc.Bytes()) {
					t.Fatal("Encode differs from json.Encoder")
				}
				anyPool.Put(got)

				back, err := jsonpool.Unmarshal(anyPool, gotJSON)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(*back, want) {
					t.Fatal("Unmarshal(Marshal(v)) differs from v")
				}
				anyPool.Put(back)
			}
		})
	}
}

// twitterStatus is enough of twitter_status.json to decode it into structs.
type twitterStatus struct {
	Statuses []struct {
		ID       int64  `json:"id"`
		IDStr    string `json:"id_str"`
		Text     string `json:"text"`
		Source   string `json:"source"`
		Entities struct {
			Hashtags []struct {
				Text    string `json:"text"`
				Indices []int  `json:"indices"`
			} `json:"hashtags"`
			URLs []struct {
				URL         string `json:"url"`
				ExpandedURL string `json:"expanded_url"`
			} `json:"urls"`
		} `json:"entities"`
		User struct {
			ID             int64   `json:"id"`
			ScreenName     string  `json:"screen_name"`
			Description    string  `json:"description"`
			FollowersCount int     `json:"followers_count"`
			URL            *string `json:"url"`
		} `json:"user"`
		RetweetCount int  `json:"retweet_count"`
		Favorited    bool `json:"favorited"`
	} `json:"statuses"`
	SearchMetadata map[string]any `json:"search_metadata"`
}

func TestCorpusIntoStructs(t *testing.T) {
	data := corpus(t)["twitter_status"]
	var want twitterStatus
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	if len(want.Statuses) == 0 {
		t.Fatal("twitter_status decoded to no statuses; the struct is wrong")
	}
	p := jsonpool.NewPool[twitterStatus]()
	for i := 0; i < 3; i++ {
		got, err := jsonpool.Unmarshal(p, data)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(*got, want) {
			t.Fatal("Unmarshal into structs differs from json.Unmarshal")
		}
		p.Put(got)
	}
}
