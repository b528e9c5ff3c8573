module example.com/load

go 1.26.0
