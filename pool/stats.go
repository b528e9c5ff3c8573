package pool

// Stats counts a pool's traffic. It is the one shape of counts in poolkit:
// Pool, slicepool.Pool and bytebuf.Pool all return it from their Stats
// method, and poolstats and poolprom publish any value with a method
// Stats() Stats, so a pool of your own can be published beside them.
//
// Gets and Puts count only while Counting is true (a Pool made WithStats,
// a slicepool.Pool or bytebuf.Pool after EnableStats). A pool may keep
// News and Drops for its own use and report them even when it does not
// count its Gets: bytebuf.Pool does, to calibrate its sizes.
//
// Before poolkit 1.0 each pool package had its own Stats type. To
// migrate, read pool.Stats where you read slicepool.Stats or
// bytebuf.Stats: the fields Gets, Puts, News, Drops and Counting are
// unchanged. bytebuf's DefaultSize, MaxSize and Calibrations moved to
// bytebuf.Pool.Calibration.
type Stats struct {
	Gets  uint64 // calls to Get
	Puts  uint64 // calls to Put with a value to keep (not nil, not empty)
	News  uint64 // Gets that found no value to reuse and made one
	Drops uint64 // Puts whose value the pool refused to keep
	// Counting reports whether the pool counts its Gets and Puts; without
	// it they are zero.
	Counting bool
}

// HitRatio returns the share of Gets served from the pool, 1 - News/Gets,
// within [0, 1]; it is 0 before the first Get. A ratio that stays low
// means the pool empties faster than it fills (each garbage collection
// empties it) or that values are not being put back.
func (s Stats) HitRatio() float64 {
	if s.Gets == 0 {
		return 0
	}
	// News can run ahead of Gets when the two were loaded from
	// concurrent counters at slightly different moments.
	return max(0, 1-float64(s.News)/float64(s.Gets))
}
