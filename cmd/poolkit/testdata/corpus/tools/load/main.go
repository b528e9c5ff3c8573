// Command load sends requests to servers on loopback for a while: HTTP
// GETs round-robin over the URLs given, or NATS publishes to subjects
// that its own connections subscribe to. It made the load under which
// the corpus's profiles were taken.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	dur := flag.Duration("d", 15*time.Second, "how long")
	conc := flag.Int("c", 8, "connections")
	nats := flag.String("nats", "", "a NATS server's address: publish instead of HTTP")
	gz := flag.Bool("gzip", true, "ask for gzip")
	flag.Parse()
	var n atomic.Int64
	deadline := time.Now().Add(*dur)
	var wg sync.WaitGroup
	for i := 0; i < *conc; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if *nats != "" {
				natsLoad(*nats, i, deadline, &n)
				return
			}
			c := &http.Client{Transport: &http.Transport{DisableCompression: true}}
			urls := flag.Args()
			for j := i; time.Now().Before(deadline); j++ {
				req, err := http.NewRequest("GET", urls[j%len(urls)], nil)
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					return
				}
				if *gz {
					req.Header.Set("Accept-Encoding", "gzip")
				}
				resp, err := c.Do(req)
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					time.Sleep(10 * time.Millisecond)
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				n.Add(1)
			}
		}(i)
	}
	wg.Wait()
	fmt.Printf("%d requests\n", n.Load())
}

func natsLoad(addr string, i int, deadline time.Time, n *atomic.Int64) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	defer c.Close()
	r := bufio.NewReader(c)
	r.ReadString('\n') // INFO
	w := bufio.NewWriter(c)
	fmt.Fprintf(w, "CONNECT {\"verbose\":false,\"pedantic\":false}\r\nSUB load.%d %d\r\nSUB load.* q%d\r\n", i, i, i)
	w.Flush()
	go io.Copy(io.Discard, r)
	payload := strings.Repeat("x", 100+i*50)
	for time.Now().Before(deadline) {
		for k := 0; k < 100; k++ {
			fmt.Fprintf(w, "PUB load.%d reply.%d %d\r\n%s\r\n", i, k, len(payload), payload)
		}
		fmt.Fprintf(w, "PING\r\n")
		w.Flush()
		n.Add(100)
	}
}
