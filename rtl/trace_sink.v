// flitsim RTL harness: a terminal's sink. It accepts a flit every cycle: each flit on
// the ejection channel returns its credit at once (through the router's flow-control
// output register, so the credit is on the wire in the cycle after the flit).
`default_nettype none

module trace_sink (clk, reset, channel, flow_ctrl);

`include "c_functions.v"
`include "c_constants.v"
`include "rtr_constants.v"

   parameter num_vcs = 4;

   localparam vc_idx_width = clogb(num_vcs);
   localparam flit_data_width = 64;
   localparam flow_ctrl_width = 1 + vc_idx_width;
   localparam channel_width = 1 + (1 + vc_idx_width + 2) + flit_data_width;

   input clk;
   input reset;
   input [0:channel_width-1] channel;
   output [0:flow_ctrl_width-1] flow_ctrl;
   wire [0:flow_ctrl_width-1] flow_ctrl;

   // valid and VC straight from the channel: the flit is consumed in the cycle it
   // arrives, as flitsim's terminal consumes it
   wire 		      flit_valid = channel[1];
   wire [0:vc_idx_width-1]    flit_vc = channel[2:2+vc_idx_width-1];
   wire [0:num_vcs-1] 	      flit_sel_ivc = {1'b1, {(num_vcs-1){1'b0}}} >> flit_vc;

   rtr_flow_ctrl_output
     #(.num_vcs(num_vcs),
       .flow_ctrl_type(`FLOW_CTRL_TYPE_CREDIT),
       .reset_type(`RESET_TYPE_ASYNC))
   fco
     (.clk(clk),
      .reset(reset),
      .active(1'b1),
      .fc_event_valid_in(flit_valid),
      .fc_event_sel_in_ivc(flit_sel_ivc),
      .flow_ctrl_out(flow_ctrl));

endmodule
