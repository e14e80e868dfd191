-- A script that raises a value that is not a message (a table without __tostring, nil, a
-- boolean) fails with the words the standalone `lua` prints, located where it was raised:
-- never a table's address.
print("raising a table")
error({ code = 1 })
