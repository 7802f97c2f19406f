; The bitmask counting loop of nqueens_cp/engines/kernel.py (count_masks),
; line for line, in LLVM's assembly language: i64 for every int (so n <= 62),
; ptr for every list.  The phi nodes at %loop carry row, total and nodes
; around the while loop.

define i64 @count_masks(i64 %n, ptr %allowed, ptr %cols, ptr %left, ptr %right, ptr %todo, ptr %nodes_out) {
entry:
  %one_past_full = shl i64 1, %n
  %full = sub i64 %one_past_full, 1
  %last = sub i64 %n, 1
  %allowed_0 = load i64, ptr %allowed
  store i64 %allowed_0, ptr %todo
  br label %loop

loop:                                   ; while row >= 0
  %row = phi i64 [0, %entry], [%row_up, %backtrack], [%row, %solution], [%row_down, %descend]
  %total = phi i64 [0, %entry], [%total, %backtrack], [%total_1, %solution], [%total, %descend]
  %nodes = phi i64 [0, %entry], [%nodes, %backtrack], [%nodes_1, %solution], [%nodes_1, %descend]
  %running = icmp sge i64 %row, 0
  br i1 %running, label %next, label %done

next:                                   ; free = todo[row]
  %todo_row = getelementptr i64, ptr %todo, i64 %row
  %free = load i64, ptr %todo_row
  %exhausted = icmp eq i64 %free, 0
  br i1 %exhausted, label %backtrack, label %place

backtrack:                              ; row -= 1
  %row_up = sub i64 %row, 1
  br label %loop

place:                                  ; bit = free & -free; todo[row] = free ^ bit; nodes += 1
  %minus_free = sub i64 0, %free
  %bit = and i64 %free, %minus_free
  %rest = xor i64 %free, %bit
  store i64 %rest, ptr %todo_row
  %nodes_1 = add i64 %nodes, 1
  %at_last = icmp eq i64 %row, %last
  br i1 %at_last, label %solution, label %descend

solution:                               ; total += 1
  %total_1 = add i64 %total, 1
  br label %loop

descend:                                ; the masks of the next row
  %cols_row = getelementptr i64, ptr %cols, i64 %row
  %left_row = getelementptr i64, ptr %left, i64 %row
  %right_row = getelementptr i64, ptr %right, i64 %row
  %cols_above = load i64, ptr %cols_row
  %left_above = load i64, ptr %left_row
  %right_above = load i64, ptr %right_row
  %c = or i64 %cols_above, %bit
  %left_with_bit = or i64 %left_above, %bit
  %left_shifted = shl i64 %left_with_bit, 1
  %ld = and i64 %left_shifted, %full
  %right_with_bit = or i64 %right_above, %bit
  %rd = lshr i64 %right_with_bit, 1
  %row_down = add i64 %row, 1
  %cols_next = getelementptr i64, ptr %cols, i64 %row_down
  %left_next = getelementptr i64, ptr %left, i64 %row_down
  %right_next = getelementptr i64, ptr %right, i64 %row_down
  %todo_next = getelementptr i64, ptr %todo, i64 %row_down
  %allowed_next = getelementptr i64, ptr %allowed, i64 %row_down
  store i64 %c, ptr %cols_next
  store i64 %ld, ptr %left_next
  store i64 %rd, ptr %right_next
  %attacked_cl = or i64 %c, %ld
  %attacked = or i64 %attacked_cl, %rd
  %open = xor i64 %attacked, -1
  %allowed_row = load i64, ptr %allowed_next
  %open_allowed = and i64 %open, %allowed_row
  %free_next = and i64 %open_allowed, %full
  store i64 %free_next, ptr %todo_next
  br label %loop

done:
  store i64 %nodes, ptr %nodes_out
  ret i64 %total
}
