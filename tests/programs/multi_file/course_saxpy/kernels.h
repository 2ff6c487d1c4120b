// Homework 3's kernels, as main.cpp sees them: plain host functions.
#pragma once

// y[i] = a * x[i] + y[i] for i < n (kernels.cu).
void launch_saxpy(float a, const float* d_x, float* d_y, int n);

// out[i] = the mean of in[i - 1], in[i] and in[i + 1], the ends clamped (stencil.cu).
extern "C" void launch_smooth(const float* d_in, float* d_out, int n);
